package dev.graphmend.ir.source;

import java.nio.charset.StandardCharsets;

/** STUB to be replaced: decoded source text. */
public final class SourceText {
    private final String text;
    private SourceText(String text) { this.text = text; }
    public static SourceText decode(byte[] bytes) { return new SourceText(new String(bytes, StandardCharsets.UTF_8)); }
    public static SourceText of(String text) { return new SourceText(text); }
    public String text() { return text; }
    public String normalized() { return text.replace("\r\n", "\n").replace('\r', '\n'); }
}
