package dev.graphmend.passes.model;

import java.util.Locale;

/** A diagnostic's severity, named as in LSP and in the JSON output ({@code "warning"}). */
public enum Severity {
    ERROR, WARNING, INFORMATION, HINT;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code error|warning|information|info|hint}; null when unknown. */
    public static Severity parse(String s) {
        if (s == null) return null;
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "error": return ERROR;
            case "warning": case "warn": return WARNING;
            case "information": case "info": return INFORMATION;
            case "hint": return HINT;
            default: return null;
        }
    }
}
