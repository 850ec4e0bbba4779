package dev.graphmend.ir.source;

import java.nio.charset.Charset;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * CPython's codec registry, as far as source decoding needs it: how a name in a coding declaration
 * resolves to a codec ({@code codecs.lookup}), and how each codec decodes.
 *
 * <p>The tables below were generated from CPython 3.13.0 ({@code encodings.aliases}, the
 * {@code encodings} package's modules and their {@code decoding_table}s; see the script at the end of
 * this file). Single-byte codecs decode from these tables, so they agree with CPython byte for byte
 * (Java's own charsets differ from CPython's in about 20 of them). Multi-byte East Asian codecs use the
 * JDK's charsets, with two fix-ups ({@link #jdkRejectedByte}, {@link #jisHorizontalBar}); they still
 * differ from CPython in a few code points (cp950 and gb18030: some characters the JDK maps to the
 * private use area; euc_kr: CPython's 8-byte KS X 1001 make-up sequences, which the JDK rejects;
 * iso2022_jp_2: the Korean and G2 parts, which the JDK rejects). A few codecs CPython has are not
 * implemented here (see {@link Kind#UNSUPPORTED}).
 */
final class PythonCodecs {
    private PythonCodecs() {}

    /** How a codec decodes. */
    enum Kind {
        /** UTF-8 (also {@code utf-8-sig}, whose leading BOM cannot occur after a cookie line). */
        UTF8,
        ASCII,
        /** A 256-entry table. */
        TABLE,
        /** A JDK charset. */
        JAVA,
        /** UTF-16/UTF-32 without an explicit byte order: a BOM picks it, else little-endian (as CPython on x86/ARM). */
        UTF16_BOM,
        UTF32_BOM,
        /** {@code undefined}: every decode fails. */
        UNDEFINED,
        /** A text codec of CPython that is not implemented here (utf-7, idna, punycode, the escape codecs, hz, the JIS X 0213 ones, ...). */
        UNSUPPORTED,
        /** A bytes-to-bytes codec (rot13, hex, base64, ...): CPython rejects it as a source encoding. */
        NOT_TEXT
    }

    /**
     * A resolved codec.
     *
     * @param name  CPython's canonical name ({@code CodecInfo.name}), e.g. {@code utf-8}, {@code iso8859-1}, {@code cp1252}
     * @param kind  how it decodes
     * @param table for {@link Kind#TABLE}: the 256 chars, U+FFFE for undefined bytes; else null
     * @param javaCharset for {@link Kind#JAVA}, {@link Kind#UTF16_BOM}, {@link Kind#UTF32_BOM}: the JDK charset (little-endian one for the BOM kinds)
     */
    record Codec(String name, Kind kind, char[] table, String javaCharset) {}

    static final Codec UTF_8 = new Codec("utf-8", Kind.UTF8, null, null);

    private static final Map<String, String> ALIAS_MAP = new HashMap<>();
    private static final Map<String, String> MODULE_MAP = new HashMap<>();
    private static final Map<String, String> TABLE_MAP = new HashMap<>();
    private static final Map<String, String> JAVA_CHARSETS = Map.ofEntries(
            Map.entry("big5", "Big5"),
            Map.entry("big5hkscs", "Big5-HKSCS"),
            Map.entry("cp932", "windows-31j"),
            Map.entry("cp949", "x-windows-949"),
            Map.entry("cp950", "x-windows-950"),
            Map.entry("euc_jp", "EUC-JP"),
            Map.entry("euc_kr", "EUC-KR"),
            Map.entry("gb18030", "GB18030"),
            Map.entry("gb2312", "GB2312"),
            Map.entry("gbk", "GBK"),
            Map.entry("iso2022_jp", "ISO-2022-JP"),
            Map.entry("iso2022_jp_2", "ISO-2022-JP-2"),
            Map.entry("iso2022_kr", "ISO-2022-KR"),
            Map.entry("johab", "x-Johab"),
            Map.entry("shift_jis", "Shift_JIS"),
            // Not shift_jisx0213/shift_jis_2004: CPython decodes their 0x5C and 0x7E as U+00A5 and U+203E,
            // the JDK's x-SJIS_0213 as '\\' and '~'; silently different source text, so left unsupported.
            Map.entry("utf-16-le", "UTF-16LE"),
            Map.entry("utf-16-be", "UTF-16BE"),
            Map.entry("utf-32-le", "UTF-32LE"),
            Map.entry("utf-32-be", "UTF-32BE"));

    /**
     * CPython's name normalisation for codec lookup ({@code _Py_normalize_encoding} followed by
     * {@code encodings.normalize_encoding}): ASCII letters lower-cased, every run of characters other
     * than ASCII letters, digits and '.' turned into one '_' (dropped at either end).
     */
    static String normalizeEncoding(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        boolean punct = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (alnum || c == '.') {
                if (punct && sb.length() > 0) {
                    sb.append('_');
                }
                punct = false;
                sb.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
            } else {
                punct = true;
            }
        }
        return sb.toString();
    }

    /**
     * CPython's {@code codecs.lookup(name)} as {@code encodings.search_function} does it.
     *
     * @return the codec, or null where CPython raises {@code LookupError: unknown encoding}
     */
    static Codec lookup(String name) {
        String norm = normalizeEncoding(name);
        String aliased = ALIAS_MAP.get(norm);
        if (aliased == null) {
            aliased = ALIAS_MAP.get(norm.replace('.', '_'));
        }
        String[] candidates = aliased != null ? new String[] {aliased, norm} : new String[] {norm};
        for (String module : candidates) {
            if (module.isEmpty() || module.indexOf('.') >= 0) {
                continue;
            }
            String codecName = MODULE_MAP.get(module);
            if (codecName != null) {
                return codec(codecName);
            }
        }
        return null;
    }

    private static Codec codec(String codecName) {
        if (codecName.startsWith("!")) {
            return new Codec(codecName.substring(1), Kind.NOT_TEXT, null, null);
        }
        switch (codecName) {
            case "utf-8":
            case "utf-8-sig":
                return new Codec(codecName, Kind.UTF8, null, null);
            case "ascii":
                return new Codec(codecName, Kind.ASCII, null, null);
            case "charmap": // charmap_decode without a mapping is latin-1
                return new Codec(codecName, Kind.TABLE, latin1Table(), null);
            case "utf-16":
                return javaCodec(codecName, Kind.UTF16_BOM, "UTF-16LE");
            case "utf-32":
                return javaCodec(codecName, Kind.UTF32_BOM, "UTF-32LE");
            case "undefined":
                return new Codec(codecName, Kind.UNDEFINED, null, null);
            default:
                break;
        }
        String hex = TABLE_MAP.get(codecName);
        if (hex != null) {
            return new Codec(codecName, Kind.TABLE, parseTable(hex), null);
        }
        String java = JAVA_CHARSETS.get(codecName);
        if (java != null) {
            return javaCodec(codecName, Kind.JAVA, java);
        }
        return new Codec(codecName, Kind.UNSUPPORTED, null, null);
    }

    /**
     * For a JDK-decoded codec: the character CPython decodes a single byte to where the JDK rejects it,
     * or 0. Only cp932 has such bytes (0x80, 0xA0, 0xFD-0xFF).
     */
    static char jdkRejectedByte(String codecName, int b) {
        if (codecName.equals("cp932")) {
            switch (b) {
                case 0x80: return '\u0080';
                case 0xA0: return '\uF8F0';
                case 0xFD: return '\uF8F1';
                case 0xFE: return '\uF8F2';
                case 0xFF: return '\uF8F3';
                default: return 0;
            }
        }
        return 0;
    }

    /**
     * Whether the JDK's U+2014 EM DASH must become U+2015 HORIZONTAL BAR: CPython maps JIS X 0208's
     * 0x213D to U+2015 (and decodes nothing to U+2014) in these codecs, the JDK to U+2014.
     */
    static boolean jisHorizontalBar(String codecName) {
        switch (codecName) {
            case "shift_jis":
            case "euc_jp":
            case "iso2022_jp":
            case "iso2022_jp_2":
                return true;
            default:
                return false;
        }
    }

    private static Codec javaCodec(String name, Kind kind, String charset) {
        boolean supported;
        try {
            supported = Charset.isSupported(charset);
        } catch (RuntimeException e) {
            supported = false;
        }
        return supported ? new Codec(name, kind, null, charset) : new Codec(name, Kind.UNSUPPORTED, null, null);
    }

    private static char[] latin1Table() {
        char[] t = new char[256];
        for (int i = 0; i < 256; i++) {
            t[i] = (char) i;
        }
        return t;
    }

    private static char[] parseTable(String hex) {
        char[] t = new char[256];
        int entries = hex.length() / 4;
        int first = 256 - entries;
        for (int i = 0; i < first; i++) {
            t[i] = (char) i;
        }
        for (int i = 0; i < entries; i++) {
            t[first + i] = (char) Integer.parseInt(hex, i * 4, i * 4 + 4, 16);
        }
        return t;
    }

    /** Names of the codecs that have a decoding table here (for tests). */
    static Set<String> tableCodecNames() {
        return Collections.unmodifiableSet(TABLE_MAP.keySet());
    }

    /** Every alias and module name of the registry (for tests). */
    static Set<String> registryNames() {
        Set<String> names = new TreeSet<>(ALIAS_MAP.keySet());
        names.addAll(MODULE_MAP.keySet());
        return names;
    }

    // ---- generated data (CPython 3.13.0), do not edit by hand ----

    /** {@code encodings.aliases.aliases} of CPython 3.13.0: alias, module name, alias, module name, ... */
    private static final String[] ALIASES = {
        "037", "cp037", "1026", "cp1026", "1125", "cp1125", "1140", "cp1140", "1250", "cp1250",
        "1251", "cp1251", "1252", "cp1252", "1253", "cp1253", "1254", "cp1254", "1255", "cp1255",
        "1256", "cp1256", "1257", "cp1257", "1258", "cp1258", "273", "cp273", "424", "cp424", "437", "cp437",
        "500", "cp500", "646", "ascii", "775", "cp775", "850", "cp850", "852", "cp852", "855", "cp855",
        "857", "cp857", "858", "cp858", "860", "cp860", "861", "cp861", "862", "cp862", "863", "cp863",
        "864", "cp864", "865", "cp865", "866", "cp866", "869", "cp869", "8859", "latin_1", "932", "cp932",
        "936", "gbk", "949", "cp949", "950", "cp950", "ansi", "mbcs", "ansi_x3.4_1968", "ascii",
        "ansi_x3.4_1986", "ascii", "ansi_x3_4_1968", "ascii", "arabic", "iso8859_6", "asmo_708", "iso8859_6",
        "base64", "base64_codec", "base_64", "base64_codec", "big5_hkscs", "big5hkscs", "big5_tw", "big5",
        "bz2", "bz2_codec", "chinese", "gb2312", "cp1051", "hp_roman8", "cp1361", "johab", "cp154", "ptcp154",
        "cp367", "ascii", "cp65001", "utf_8", "cp819", "latin_1", "cp866u", "cp1125", "cp936", "gbk",
        "cp_gr", "cp869", "cp_is", "cp861", "csHPRoman8", "hp_roman8", "csascii", "ascii", "csbig5", "big5",
        "csibm037", "cp037", "csibm1026", "cp1026", "csibm273", "cp273", "csibm424", "cp424",
        "csibm500", "cp500", "csibm855", "cp855", "csibm857", "cp857", "csibm858", "cp858",
        "csibm860", "cp860", "csibm861", "cp861", "csibm863", "cp863", "csibm864", "cp864",
        "csibm865", "cp865", "csibm866", "cp866", "csibm869", "cp869", "csiso2022jp", "iso2022_jp",
        "csiso2022kr", "iso2022_kr", "csiso58gb231280", "gb2312", "csisolatin1", "latin_1",
        "csisolatin2", "iso8859_2", "csisolatin3", "iso8859_3", "csisolatin4", "iso8859_4",
        "csisolatin5", "iso8859_9", "csisolatin6", "iso8859_10", "csisolatinarabic", "iso8859_6",
        "csisolatincyrillic", "iso8859_5", "csisolatingreek", "iso8859_7", "csisolatinhebrew", "iso8859_8",
        "cskoi8r", "koi8_r", "cspc775baltic", "cp775", "cspc850multilingual", "cp850",
        "cspc862latinhebrew", "cp862", "cspc8codepage437", "cp437", "cspcp852", "cp852",
        "csptcp154", "ptcp154", "csshiftjis", "shift_jis", "cyrillic", "iso8859_5",
        "cyrillic_asian", "ptcp154", "dbcs", "mbcs", "ebcdic_cp_be", "cp500", "ebcdic_cp_ca", "cp037",
        "ebcdic_cp_ch", "cp500", "ebcdic_cp_he", "cp424", "ebcdic_cp_nl", "cp037", "ebcdic_cp_us", "cp037",
        "ebcdic_cp_wt", "cp037", "ecma_114", "iso8859_6", "ecma_118", "iso8859_7", "elot_928", "iso8859_7",
        "euc_cn", "gb2312", "euc_jis2004", "euc_jis_2004", "euccn", "gb2312", "eucgb2312_cn", "gb2312",
        "eucjis2004", "euc_jis_2004", "eucjisx0213", "euc_jisx0213", "eucjp", "euc_jp", "euckr", "euc_kr",
        "gb18030_2000", "gb18030", "gb2312_1980", "gb2312", "gb2312_80", "gb2312", "greek", "iso8859_7",
        "greek8", "iso8859_7", "hebrew", "iso8859_8", "hex", "hex_codec", "hkscs", "big5hkscs", "hz_gb", "hz",
        "hz_gb_2312", "hz", "hzgb", "hz", "ibm037", "cp037", "ibm039", "cp037", "ibm1026", "cp1026",
        "ibm1051", "hp_roman8", "ibm1125", "cp1125", "ibm1140", "cp1140", "ibm273", "cp273",
        "ibm367", "ascii", "ibm424", "cp424", "ibm437", "cp437", "ibm500", "cp500", "ibm775", "cp775",
        "ibm819", "latin_1", "ibm850", "cp850", "ibm852", "cp852", "ibm855", "cp855", "ibm857", "cp857",
        "ibm858", "cp858", "ibm860", "cp860", "ibm861", "cp861", "ibm862", "cp862", "ibm863", "cp863",
        "ibm864", "cp864", "ibm865", "cp865", "ibm866", "cp866", "ibm869", "cp869", "iso2022jp", "iso2022_jp",
        "iso2022jp_1", "iso2022_jp_1", "iso2022jp_2", "iso2022_jp_2", "iso2022jp_2004", "iso2022_jp_2004",
        "iso2022jp_3", "iso2022_jp_3", "iso2022jp_ext", "iso2022_jp_ext", "iso2022kr", "iso2022_kr",
        "iso646_us", "ascii", "iso8859", "latin_1", "iso8859_1", "latin_1", "iso_2022_jp", "iso2022_jp",
        "iso_2022_jp_1", "iso2022_jp_1", "iso_2022_jp_2", "iso2022_jp_2",
        "iso_2022_jp_2004", "iso2022_jp_2004", "iso_2022_jp_3", "iso2022_jp_3",
        "iso_2022_jp_ext", "iso2022_jp_ext", "iso_2022_kr", "iso2022_kr", "iso_646.irv_1991", "ascii",
        "iso_8859_1", "latin_1", "iso_8859_10", "iso8859_10", "iso_8859_10_1992", "iso8859_10",
        "iso_8859_11", "iso8859_11", "iso_8859_11_2001", "iso8859_11", "iso_8859_13", "iso8859_13",
        "iso_8859_14", "iso8859_14", "iso_8859_14_1998", "iso8859_14", "iso_8859_15", "iso8859_15",
        "iso_8859_16", "iso8859_16", "iso_8859_16_2001", "iso8859_16", "iso_8859_1_1987", "latin_1",
        "iso_8859_2", "iso8859_2", "iso_8859_2_1987", "iso8859_2", "iso_8859_3", "iso8859_3",
        "iso_8859_3_1988", "iso8859_3", "iso_8859_4", "iso8859_4", "iso_8859_4_1988", "iso8859_4",
        "iso_8859_5", "iso8859_5", "iso_8859_5_1988", "iso8859_5", "iso_8859_6", "iso8859_6",
        "iso_8859_6_1987", "iso8859_6", "iso_8859_7", "iso8859_7", "iso_8859_7_1987", "iso8859_7",
        "iso_8859_8", "iso8859_8", "iso_8859_8_1988", "iso8859_8", "iso_8859_9", "iso8859_9",
        "iso_8859_9_1989", "iso8859_9", "iso_celtic", "iso8859_14", "iso_ir_100", "latin_1",
        "iso_ir_101", "iso8859_2", "iso_ir_109", "iso8859_3", "iso_ir_110", "iso8859_4",
        "iso_ir_126", "iso8859_7", "iso_ir_127", "iso8859_6", "iso_ir_138", "iso8859_8",
        "iso_ir_144", "iso8859_5", "iso_ir_148", "iso8859_9", "iso_ir_157", "iso8859_10",
        "iso_ir_166", "tis_620", "iso_ir_199", "iso8859_14", "iso_ir_226", "iso8859_16",
        "iso_ir_58", "gb2312", "iso_ir_6", "ascii", "jisx0213", "euc_jis_2004", "korean", "euc_kr",
        "ks_c_5601", "euc_kr", "ks_c_5601_1987", "euc_kr", "ks_x_1001", "euc_kr", "ksc5601", "euc_kr",
        "ksx1001", "euc_kr", "kz_1048", "kz1048", "l1", "latin_1", "l10", "iso8859_16", "l2", "iso8859_2",
        "l3", "iso8859_3", "l4", "iso8859_4", "l5", "iso8859_9", "l6", "iso8859_10", "l7", "iso8859_13",
        "l8", "iso8859_14", "l9", "iso8859_15", "latin", "latin_1", "latin1", "latin_1",
        "latin10", "iso8859_16", "latin2", "iso8859_2", "latin3", "iso8859_3", "latin4", "iso8859_4",
        "latin5", "iso8859_9", "latin6", "iso8859_10", "latin7", "iso8859_13", "latin8", "iso8859_14",
        "latin9", "iso8859_15", "mac_centeuro", "mac_latin2", "maccentraleurope", "mac_latin2",
        "maccyrillic", "mac_cyrillic", "macgreek", "mac_greek", "maciceland", "mac_iceland",
        "macintosh", "mac_roman", "maclatin2", "mac_latin2", "macroman", "mac_roman",
        "macturkish", "mac_turkish", "ms1361", "johab", "ms932", "cp932", "ms936", "gbk", "ms949", "cp949",
        "ms950", "cp950", "ms_kanji", "cp932", "mskanji", "cp932", "pt154", "ptcp154",
        "quopri", "quopri_codec", "quoted_printable", "quopri_codec", "quotedprintable", "quopri_codec",
        "r8", "hp_roman8", "rk1048", "kz1048", "roman8", "hp_roman8", "rot13", "rot_13", "ruscii", "cp1125",
        "s_jis", "shift_jis", "s_jis_2004", "shift_jis_2004", "s_jisx0213", "shift_jisx0213",
        "shiftjis", "shift_jis", "shiftjis2004", "shift_jis_2004", "shiftjisx0213", "shift_jisx0213",
        "sjis", "shift_jis", "sjis_2004", "shift_jis_2004", "sjisx0213", "shift_jisx0213",
        "strk1048_2002", "kz1048", "thai", "iso8859_11", "tis620", "tis_620", "tis_620_0", "tis_620",
        "tis_620_2529_0", "tis_620", "tis_620_2529_1", "tis_620", "u16", "utf_16", "u32", "utf_32",
        "u7", "utf_7", "u8", "utf_8", "u_jis", "euc_jp", "uhc", "cp949", "ujis", "euc_jp",
        "unicode_1_1_utf_7", "utf_7", "unicodebigunmarked", "utf_16_be", "unicodelittleunmarked", "utf_16_le",
        "us", "ascii", "us_ascii", "ascii", "utf", "utf_8", "utf16", "utf_16", "utf32", "utf_32",
        "utf7", "utf_7", "utf8", "utf_8", "utf8_ucs2", "utf_8", "utf8_ucs4", "utf_8", "utf_16be", "utf_16_be",
        "utf_16le", "utf_16_le", "utf_32be", "utf_32_be", "utf_32le", "utf_32_le", "uu", "uu_codec",
        "windows_1250", "cp1250", "windows_1251", "cp1251", "windows_1252", "cp1252",
        "windows_1253", "cp1253", "windows_1254", "cp1254", "windows_1255", "cp1255",
        "windows_1256", "cp1256", "windows_1257", "cp1257", "windows_1258", "cp1258", "windows_31j", "cp932",
        "x_mac_japanese", "shift_jis", "x_mac_korean", "euc_kr", "x_mac_simp_chinese", "gb2312",
        "x_mac_trad_chinese", "big5", "zip", "zlib_codec", "zlib", "zlib_codec",
    };

    /** Modules of the {@code encodings} package that CPython 3.13.0 can import on Linux: module name, codec name; a codec name starting with '!' is not a text encoding. */
    private static final String[] MODULES = {
        "ascii", "ascii", "base64_codec", "!base64", "big5", "big5", "big5hkscs", "big5hkscs",
        "bz2_codec", "!bz2", "charmap", "charmap", "cp037", "cp037", "cp1006", "cp1006", "cp1026", "cp1026",
        "cp1125", "cp1125", "cp1140", "cp1140", "cp1250", "cp1250", "cp1251", "cp1251", "cp1252", "cp1252",
        "cp1253", "cp1253", "cp1254", "cp1254", "cp1255", "cp1255", "cp1256", "cp1256", "cp1257", "cp1257",
        "cp1258", "cp1258", "cp273", "cp273", "cp424", "cp424", "cp437", "cp437", "cp500", "cp500",
        "cp720", "cp720", "cp737", "cp737", "cp775", "cp775", "cp850", "cp850", "cp852", "cp852",
        "cp855", "cp855", "cp856", "cp856", "cp857", "cp857", "cp858", "cp858", "cp860", "cp860",
        "cp861", "cp861", "cp862", "cp862", "cp863", "cp863", "cp864", "cp864", "cp865", "cp865",
        "cp866", "cp866", "cp869", "cp869", "cp874", "cp874", "cp875", "cp875", "cp932", "cp932",
        "cp949", "cp949", "cp950", "cp950", "euc_jis_2004", "euc_jis_2004", "euc_jisx0213", "euc_jisx0213",
        "euc_jp", "euc_jp", "euc_kr", "euc_kr", "gb18030", "gb18030", "gb2312", "gb2312", "gbk", "gbk",
        "hex_codec", "!hex", "hp_roman8", "hp-roman8", "hz", "hz", "idna", "idna", "iso2022_jp", "iso2022_jp",
        "iso2022_jp_1", "iso2022_jp_1", "iso2022_jp_2", "iso2022_jp_2", "iso2022_jp_2004", "iso2022_jp_2004",
        "iso2022_jp_3", "iso2022_jp_3", "iso2022_jp_ext", "iso2022_jp_ext", "iso2022_kr", "iso2022_kr",
        "iso8859_1", "iso8859-1", "iso8859_10", "iso8859-10", "iso8859_11", "iso8859-11",
        "iso8859_13", "iso8859-13", "iso8859_14", "iso8859-14", "iso8859_15", "iso8859-15",
        "iso8859_16", "iso8859-16", "iso8859_2", "iso8859-2", "iso8859_3", "iso8859-3",
        "iso8859_4", "iso8859-4", "iso8859_5", "iso8859-5", "iso8859_6", "iso8859-6",
        "iso8859_7", "iso8859-7", "iso8859_8", "iso8859-8", "iso8859_9", "iso8859-9", "johab", "johab",
        "koi8_r", "koi8-r", "koi8_t", "koi8-t", "koi8_u", "koi8-u", "kz1048", "kz1048",
        "latin_1", "iso8859-1", "mac_arabic", "mac-arabic", "mac_croatian", "mac-croatian",
        "mac_cyrillic", "mac-cyrillic", "mac_farsi", "mac-farsi", "mac_greek", "mac-greek",
        "mac_iceland", "mac-iceland", "mac_latin2", "mac-latin2", "mac_roman", "mac-roman",
        "mac_romanian", "mac-romanian", "mac_turkish", "mac-turkish", "palmos", "palmos",
        "ptcp154", "ptcp154", "punycode", "punycode", "quopri_codec", "!quopri",
        "raw_unicode_escape", "raw-unicode-escape", "rot_13", "!rot-13", "shift_jis", "shift_jis",
        "shift_jis_2004", "shift_jis_2004", "shift_jisx0213", "shift_jisx0213", "tis_620", "tis-620",
        "undefined", "undefined", "unicode_escape", "unicode-escape", "utf_16", "utf-16",
        "utf_16_be", "utf-16-be", "utf_16_le", "utf-16-le", "utf_32", "utf-32", "utf_32_be", "utf-32-be",
        "utf_32_le", "utf-32-le", "utf_7", "utf-7", "utf_8", "utf-8", "utf_8_sig", "utf-8-sig",
        "uu_codec", "!uu", "zlib_codec", "!zlib",
    };

    /**
     * Decoding tables of CPython's single-byte codecs (the modules' {@code decoding_table}), as 4 hex digits per
     * byte value, U+FFFE meaning undefined. A table of 128 entries covers bytes 0x80-0xFF (0x00-0x7F are ASCII).
     */
    private static final String[] TABLES = {
        "cp037",
            "0000000100020003009c00090086007f0097008d008e000b000c000d000e000f0010001100120013009d008500080087" +
            "001800190092008f001c001d001e001f00800081008200830084000a0017001b00880089008a008b008c000500060007" +
            "0090009100160093009400950096000400980099009a009b00140015009e001a002000a000e200e400e000e100e300e5" +
            "00e700f100a2002e003c0028002b007c002600e900ea00eb00e800ed00ee00ef00ec00df00210024002a0029003b00ac" +
            "002d002f00c200c400c000c100c300c500c700d100a6002c0025005f003e003f00f800c900ca00cb00c800cd00ce00cf" +
            "00cc0060003a002300400027003d002200d800610062006300640065006600670068006900ab00bb00f000fd00fe00b1" +
            "00b0006a006b006c006d006e006f00700071007200aa00ba00e600b800c600a400b5007e007300740075007600770078" +
            "0079007a00a100bf00d000dd00de00ae005e00a300a500b700a900a700b600bc00bd00be005b005d00af00a800b400d7" +
            "007b00410042004300440045004600470048004900ad00f400f600f200f300f5007d004a004b004c004d004e004f0050" +
            "0051005200b900fb00fc00f900fa00ff005c00f70053005400550056005700580059005a00b200d400d600d200d300d5" +
            "003000310032003300340035003600370038003900b300db00dc00d900da009f",
        "cp1006",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a006f006f106f206f306f406f506f606f706f806f9060c061b00ad061ffe81" +
            "fe8dfe8efe8efe8ffe91fb56fb58fe93fe95fe97fb66fb68fe99fe9bfe9dfe9ffb7afb7cfea1fea3fea5fea7fea9fb84" +
            "feabfeadfb8cfeaffb8afeb1feb3feb5feb7feb9febbfebdfebffec1fec5fec9fecafecbfeccfecdfecefecffed0fed1" +
            "fed3fed5fed7fed9fedbfb92fb94feddfedffee0fee1fee3fb9efee5fee7fe85feedfba6fba8fba9fbaafe80fe89fe8a" +
            "fe8bfef1fef2fef3fbb0fbaefe7cfe7d",
        "cp1026",
            "0000000100020003009c00090086007f0097008d008e000b000c000d000e000f0010001100120013009d008500080087" +
            "001800190092008f001c001d001e001f00800081008200830084000a0017001b00880089008a008b008c000500060007" +
            "0090009100160093009400950096000400980099009a009b00140015009e001a002000a000e200e400e000e100e300e5" +
            "007b00f100c7002e003c0028002b0021002600e900ea00eb00e800ed00ee00ef00ec00df011e0130002a0029003b005e" +
            "002d002f00c200c400c000c100c300c5005b00d1015f002c0025005f003e003f00f800c900ca00cb00c800cd00ce00cf" +
            "00cc0131003a00d6015e0027003d00dc00d800610062006300640065006600670068006900ab00bb007d006000a600b1" +
            "00b0006a006b006c006d006e006f00700071007200aa00ba00e600b800c600a400b500f6007300740075007600770078" +
            "0079007a00a100bf005d0024004000ae00a200a300a500b700a900a700b600bc00bd00be00ac007c00af00a800b400d7" +
            "00e700410042004300440045004600470048004900ad00f4007e00f200f300f5011f004a004b004c004d004e004f0050" +
            "0051005200b900fb005c00f900fa00ff00fc00f70053005400550056005700580059005a00b200d4002300d200d300d5" +
            "003000310032003300340035003600370038003900b300db002200d900da009f",
        "cp1125",
            "0410041104120413041404150416041704180419041a041b041c041d041e041f04200421042204230424042504260427" +
            "04280429042a042b042c042d042e042f0430043104320433043404350436043704380439043a043b043c043d043e043f" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "0440044104420443044404450446044704480449044a044b044c044d044e044f04010451049004910404045404060456" +
            "0407045700b7221a211600a425a000a0",
        "cp1140",
            "0000000100020003009c00090086007f0097008d008e000b000c000d000e000f0010001100120013009d008500080087" +
            "001800190092008f001c001d001e001f00800081008200830084000a0017001b00880089008a008b008c000500060007" +
            "0090009100160093009400950096000400980099009a009b00140015009e001a002000a000e200e400e000e100e300e5" +
            "00e700f100a2002e003c0028002b007c002600e900ea00eb00e800ed00ee00ef00ec00df00210024002a0029003b00ac" +
            "002d002f00c200c400c000c100c300c500c700d100a6002c0025005f003e003f00f800c900ca00cb00c800cd00ce00cf" +
            "00cc0060003a002300400027003d002200d800610062006300640065006600670068006900ab00bb00f000fd00fe00b1" +
            "00b0006a006b006c006d006e006f00700071007200aa00ba00e600b800c620ac00b5007e007300740075007600770078" +
            "0079007a00a100bf00d000dd00de00ae005e00a300a500b700a900a700b600bc00bd00be005b005d00af00a800b400d7" +
            "007b00410042004300440045004600470048004900ad00f400f600f200f300f5007d004a004b004c004d004e004f0050" +
            "0051005200b900fb00fc00f900fa00ff005c00f70053005400550056005700580059005a00b200d400d600d200d300d5" +
            "003000310032003300340035003600370038003900b300db00dc00d900da009f",
        "cp1250",
            "20acfffe201afffe201e202620202021fffe203001602039015a0164017d0179fffe20182019201c201d202220132014" +
            "fffe21220161203a015b0165017e017a00a002c702d8014100a4010400a600a700a800a9015e00ab00ac00ad00ae017b" +
            "00b000b102db014200b400b500b600b700b80105015f00bb013d02dd013e017c015400c100c2010200c40139010600c7" +
            "010c00c9011800cb011a00cd00ce010e01100143014700d300d4015000d600d70158016e00da017000dc00dd016200df" +
            "015500e100e2010300e4013a010700e7010d00e9011900eb011b00ed00ee010f01110144014800f300f4015100f600f7" +
            "0159016f00fa017100fc00fd016302d9",
        "cp1251",
            "04020403201a0453201e20262020202120ac203004092039040a040c040b040f045220182019201c201d202220132014" +
            "fffe21220459203a045a045c045b045f00a0040e045e040800a4049000a600a7040100a9040400ab00ac00ad00ae0407" +
            "00b000b104060456049100b500b600b704512116045400bb045804050455045704100411041204130414041504160417" +
            "04180419041a041b041c041d041e041f0420042104220423042404250426042704280429042a042b042c042d042e042f" +
            "0430043104320433043404350436043704380439043a043b043c043d043e043f04400441044204430444044504460447" +
            "04480449044a044b044c044d044e044f",
        "cp1252",
            "20acfffe201a0192201e20262020202102c62030016020390152fffe017dfffefffe20182019201c201d202220132014" +
            "02dc21220161203a0153fffe017e017800a000a100a200a300a400a500a600a700a800a900aa00ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900ba00bb00bc00bd00be00bf00c000c100c200c300c400c500c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf00d000d100d200d300d400d500d600d700d800d900da00db00dc00dd00de00df" +
            "00e000e100e200e300e400e500e600e700e800e900ea00eb00ec00ed00ee00ef00f000f100f200f300f400f500f600f7" +
            "00f800f900fa00fb00fc00fd00fe00ff",
        "cp1253",
            "20acfffe201a0192201e202620202021fffe2030fffe2039fffefffefffefffefffe20182019201c201d202220132014" +
            "fffe2122fffe203afffefffefffefffe00a00385038600a300a400a500a600a700a800a9fffe00ab00ac00ad00ae2015" +
            "00b000b100b200b3038400b500b600b703880389038a00bb038c00bd038e038f03900391039203930394039503960397" +
            "03980399039a039b039c039d039e039f03a003a1fffe03a303a403a503a603a703a803a903aa03ab03ac03ad03ae03af" +
            "03b003b103b203b303b403b503b603b703b803b903ba03bb03bc03bd03be03bf03c003c103c203c303c403c503c603c7" +
            "03c803c903ca03cb03cc03cd03cefffe",
        "cp1254",
            "20acfffe201a0192201e20262020202102c62030016020390152fffefffefffefffe20182019201c201d202220132014" +
            "02dc21220161203a0153fffefffe017800a000a100a200a300a400a500a600a700a800a900aa00ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900ba00bb00bc00bd00be00bf00c000c100c200c300c400c500c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf011e00d100d200d300d400d500d600d700d800d900da00db00dc0130015e00df" +
            "00e000e100e200e300e400e500e600e700e800e900ea00eb00ec00ed00ee00ef011f00f100f200f300f400f500f600f7" +
            "00f800f900fa00fb00fc0131015f00ff",
        "cp1255",
            "20acfffe201a0192201e20262020202102c62030fffe2039fffefffefffefffefffe20182019201c201d202220132014" +
            "02dc2122fffe203afffefffefffefffe00a000a100a200a320aa00a500a600a700a800a900d700ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900f700bb00bc00bd00be00bf05b005b105b205b305b405b505b605b7" +
            "05b805b9fffe05bb05bc05bd05be05bf05c005c105c205c305f005f105f205f305f4fffefffefffefffefffefffefffe" +
            "05d005d105d205d305d405d505d605d705d805d905da05db05dc05dd05de05df05e005e105e205e305e405e505e605e7" +
            "05e805e905eafffefffe200e200ffffe",
        "cp1256",
            "20ac067e201a0192201e20262020202102c6203006792039015206860698068806af20182019201c201d202220132014" +
            "06a921220691203a0153200c200d06ba00a0060c00a200a300a400a500a600a700a800a906be00ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b9061b00bb00bc00bd00be061f06c10621062206230624062506260627" +
            "06280629062a062b062c062d062e062f063006310632063306340635063600d7063706380639063a0640064106420643" +
            "00e0064400e2064506460647064800e700e800e900ea00eb0649064a00ee00ef064b064c064d064e00f4064f065000f7" +
            "065100f9065200fb00fc200e200f06d2",
        "cp1257",
            "20acfffe201afffe201e202620202021fffe2030fffe2039fffe00a802c700b8fffe20182019201c201d202220132014" +
            "fffe2122fffe203afffe00af02dbfffe00a0fffe00a200a300a4fffe00a600a700d800a9015600ab00ac00ad00ae00c6" +
            "00b000b100b200b300b400b500b600b700f800b9015700bb00bc00bd00be00e60104012e0100010600c400c501180112" +
            "010c00c90179011601220136012a013b01600143014500d3014c00d500d600d701720141015a016a00dc017b017d00df" +
            "0105012f0101010700e400e501190113010d00e9017a011701230137012b013c01610144014600f3014d00f500f600f7" +
            "01730142015b016b00fc017c017e02d9",
        "cp1258",
            "20acfffe201a0192201e20262020202102c62030fffe20390152fffefffefffefffe20182019201c201d202220132014" +
            "02dc2122fffe203a0153fffefffe017800a000a100a200a300a400a500a600a700a800a900aa00ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900ba00bb00bc00bd00be00bf00c000c100c2010200c400c500c600c7" +
            "00c800c900ca00cb030000cd00ce00cf011000d1030900d300d401a000d600d700d800d900da00db00dc01af030300df" +
            "00e000e100e2010300e400e500e600e700e800e900ea00eb030100ed00ee00ef011100f1032300f300f401a100f600f7" +
            "00f800f900fa00fb00fc01b020ab00ff",
        "cp273",
            "0000000100020003009c00090086007f0097008d008e000b000c000d000e000f0010001100120013009d008500080087" +
            "001800190092008f001c001d001e001f00800081008200830084000a0017001b00880089008a008b008c000500060007" +
            "0090009100160093009400950096000400980099009a009b00140015009e001a002000a000e2007b00e000e100e300e5" +
            "00e700f100c4002e003c0028002b0021002600e900ea00eb00e800ed00ee00ef00ec007e00dc0024002a0029003b005e" +
            "002d002f00c2005b00c000c100c300c500c700d100f6002c0025005f003e003f00f800c900ca00cb00c800cd00ce00cf" +
            "00cc0060003a002300a70027003d002200d800610062006300640065006600670068006900ab00bb00f000fd00fe00b1" +
            "00b0006a006b006c006d006e006f00700071007200aa00ba00e600b800c600a400b500df007300740075007600770078" +
            "0079007a00a100bf00d000dd00de00ae00a200a300a500b700a9004000b600bc00bd00be00ac007c203e00a800b400d7" +
            "00e400410042004300440045004600470048004900ad00f400a600f200f300f500fc004a004b004c004d004e004f0050" +
            "0051005200b900fb007d00f900fa00ff00d600f70053005400550056005700580059005a00b200d4005c00d200d300d5" +
            "003000310032003300340035003600370038003900b300db005d00d900da009f",
        "cp424",
            "0000000100020003009c00090086007f0097008d008e000b000c000d000e000f0010001100120013009d008500080087" +
            "001800190092008f001c001d001e001f00800081008200830084000a0017001b00880089008a008b008c000500060007" +
            "0090009100160093009400950096000400980099009a009b00140015009e001a002005d005d105d205d305d405d505d6" +
            "05d705d800a2002e003c0028002b007c002605d905da05db05dc05dd05de05df05e005e100210024002a0029003b00ac" +
            "002d002f05e205e305e405e505e605e705e805e900a6002c0025005f003e003ffffe05eafffefffe00a0fffefffefffe" +
            "20170060003a002300400027003d0022fffe00610062006300640065006600670068006900ab00bbfffefffefffe00b1" +
            "00b0006a006b006c006d006e006f007000710072fffefffefffe00b8fffe00a400b5007e007300740075007600770078" +
            "0079007afffefffefffefffefffe00ae005e00a300a500b700a900a700b600bc00bd00be005b005d00af00a800b400d7" +
            "007b00410042004300440045004600470048004900adfffefffefffefffefffe007d004a004b004c004d004e004f0050" +
            "0051005200b9fffefffefffefffefffe005c00f70053005400550056005700580059005a00b2fffefffefffefffefffe" +
            "003000310032003300340035003600370038003900b3fffefffefffefffe009f",
        "cp437",
            "00c700fc00e900e200e400e000e500e700ea00eb00e800ef00ee00ec00c400c500c900e600c600f400f600f200fb00f9" +
            "00ff00d600dc00a200a300a520a7019200e100ed00f300fa00f100d100aa00ba00bf231000ac00bd00bc00a100ab00bb" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "03b100df039303c003a303c300b503c403a6039803a903b4221e03c603b52229226100b1226522642320232100f72248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp500",
            "0000000100020003009c00090086007f0097008d008e000b000c000d000e000f0010001100120013009d008500080087" +
            "001800190092008f001c001d001e001f00800081008200830084000a0017001b00880089008a008b008c000500060007" +
            "0090009100160093009400950096000400980099009a009b00140015009e001a002000a000e200e400e000e100e300e5" +
            "00e700f1005b002e003c0028002b0021002600e900ea00eb00e800ed00ee00ef00ec00df005d0024002a0029003b005e" +
            "002d002f00c200c400c000c100c300c500c700d100a6002c0025005f003e003f00f800c900ca00cb00c800cd00ce00cf" +
            "00cc0060003a002300400027003d002200d800610062006300640065006600670068006900ab00bb00f000fd00fe00b1" +
            "00b0006a006b006c006d006e006f00700071007200aa00ba00e600b800c600a400b5007e007300740075007600770078" +
            "0079007a00a100bf00d000dd00de00ae00a200a300a500b700a900a700b600bc00bd00be00ac007c00af00a800b400d7" +
            "007b00410042004300440045004600470048004900ad00f400f600f200f300f5007d004a004b004c004d004e004f0050" +
            "0051005200b900fb00fc00f900fa00ff005c00f70053005400550056005700580059005a00b200d400d600d200d300d5" +
            "003000310032003300340035003600370038003900b300db00dc00d900da009f",
        "cp720",
            "0080008100e900e2008400e0008600e700ea00eb00e800ef00ee008d008e008f00900651065200f400a4064000fb00f9" +
            "062106220623062400a306250626062706280629062a062b062c062d062e062f06300631063206330634063500ab00bb" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "0636063706380639063a064100b506420643064406450646064706480649064a2261064b064c064d064e064f06502248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp737",
            "039103920393039403950396039703980399039a039b039c039d039e039f03a003a103a303a403a503a603a703a803a9" +
            "03b103b203b303b403b503b603b703b803b903ba03bb03bc03bd03be03bf03c003c103c303c203c403c503c603c703c8" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "03c903ac03ad03ae03ca03af03cc03cd03cb03ce038603880389038a038c038e038f00b12265226403aa03ab00f72248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp775",
            "010600fc00e9010100e4012300e501070142011301560157012b017900c400c500c900e600c6014d00f6012200a2015a" +
            "015b00d600dc00f800a300d800d700a40100012a00f3017b017c017a201d00a600a900ae00ac00bd00bc014100ab00bb" +
            "259125922593250225240104010c01180116256325512557255d012e0160251025142534252c251c2500253c0172016a" +
            "255a25542569256625602550256c017d0105010d01190117012f01610173016b017e2518250c25882584258c25902580" +
            "00d300df014c014300f500d500b5014401360137013b013c014601120145201900ad00b1201c00be00b600a700f7201e" +
            "00b0221900b700b900b300b225a000a0",
        "cp850",
            "00c700fc00e900e200e400e000e500e700ea00eb00e800ef00ee00ec00c400c500c900e600c600f400f600f200fb00f9" +
            "00ff00d600dc00f800a300d800d7019200e100ed00f300fa00f100d100aa00ba00bf00ae00ac00bd00bc00a100ab00bb" +
            "2591259225932502252400c100c200c000a9256325512557255d00a200a5251025142534252c251c2500253c00e300c3" +
            "255a25542569256625602550256c00a400f000d000ca00cb00c8013100cd00ce00cf2518250c2588258400a600cc2580" +
            "00d300df00d400d200f500d500b500fe00de00da00db00d900fd00dd00af00b400ad00b1201700be00b600a700f700b8" +
            "00b000a800b700b900b300b225a000a0",
        "cp852",
            "00c700fc00e900e200e4016f010700e7014200eb0150015100ee017900c4010600c90139013a00f400f6013d013e015a" +
            "015b00d600dc01640165014100d7010d00e100ed00f300fa01040105017d017e0118011900ac017a010c015f00ab00bb" +
            "2591259225932502252400c100c2011a015e256325512557255d017b017c251025142534252c251c2500253c01020103" +
            "255a25542569256625602550256c00a401110110010e00cb010f014700cd00ce011b2518250c258825840162016e2580" +
            "00d300df00d401430144014801600161015400da0155017000fd00dd016300b400ad02dd02db02c702d800a700f700b8" +
            "00b000a802d901710158015925a000a0",
        "cp855",
            "045204020453040304510401045404040455040504560406045704070458040804590409045a040a045b040b045c040c" +
            "045e040e045f040f044e042e044a042a0430041004310411044604260434041404350415044404240433041300ab00bb" +
            "259125922593250225240445042504380418256325512557255d04390419251025142534252c251c2500253c043a041a" +
            "255a25542569256625602550256c00a4043b041b043c041c043d041d043e041e043f2518250c25882584041f044f2580" +
            "042f044004200441042104420422044304230436041604320412044c042c211600ad044b042b0437041704480428044d" +
            "042d044904290447042700a725a000a0",
        "cp856",
            "05d005d105d205d305d405d505d605d705d805d905da05db05dc05dd05de05df05e005e105e205e305e405e505e605e7" +
            "05e805e905eafffe00a3fffe00d7fffefffefffefffefffefffefffefffefffefffe00ae00ac00bd00bcfffe00ab00bb" +
            "25912592259325022524fffefffefffe00a9256325512557255d00a200a5251025142534252c251c2500253cfffefffe" +
            "255a25542569256625602550256c00a4fffefffefffefffefffefffefffefffefffe2518250c2588258400a6fffe2580" +
            "fffefffefffefffefffefffe00b5fffefffefffefffefffefffefffe00af00b400ad00b1201700be00b600a700f700b8" +
            "00b000a800b700b900b300b225a000a0",
        "cp857",
            "00c700fc00e900e200e400e000e500e700ea00eb00e800ef00ee013100c400c500c900e600c600f400f600f200fb00f9" +
            "013000d600dc00f800a300d8015e015f00e100ed00f300fa00f100d1011e011f00bf00ae00ac00bd00bc00a100ab00bb" +
            "2591259225932502252400c100c200c000a9256325512557255d00a200a5251025142534252c251c2500253c00e300c3" +
            "255a25542569256625602550256c00a400ba00aa00ca00cb00c8fffe00cd00ce00cf2518250c2588258400a600cc2580" +
            "00d300df00d400d200f500d500b5fffe00d700da00db00d900ec00ff00af00b400ad00b1fffe00be00b600a700f700b8" +
            "00b000a800b700b900b300b225a000a0",
        "cp858",
            "00c700fc00e900e200e400e000e500e700ea00eb00e800ef00ee00ec00c400c500c900e600c600f400f600f200fb00f9" +
            "00ff00d600dc00f800a300d800d7019200e100ed00f300fa00f100d100aa00ba00bf00ae00ac00bd00bc00a100ab00bb" +
            "2591259225932502252400c100c200c000a9256325512557255d00a200a5251025142534252c251c2500253c00e300c3" +
            "255a25542569256625602550256c00a400f000d000ca00cb00c820ac00cd00ce00cf2518250c2588258400a600cc2580" +
            "00d300df00d400d200f500d500b500fe00de00da00db00d900fd00dd00af00b400ad00b1201700be00b600a700f700b8" +
            "00b000a800b700b900b300b225a000a0",
        "cp860",
            "00c700fc00e900e200e300e000c100e700ea00ca00e800cd00d400ec00c300c200c900c000c800f400f500f200da00f9" +
            "00cc00d500dc00a200a300d920a700d300e100ed00f300fa00f100d100aa00ba00bf00d200ac00bd00bc00a100ab00bb" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "03b100df039303c003a303c300b503c403a6039803a903b4221e03c603b52229226100b1226522642320232100f72248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp861",
            "00c700fc00e900e200e400e000e500e700ea00eb00e800d000f000de00c400c500c900e600c600f400f600fe00fb00dd" +
            "00fd00d600dc00f800a300d820a7019200e100ed00f300fa00c100cd00d300da00bf231000ac00bd00bc00a100ab00bb" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "03b100df039303c003a303c300b503c403a6039803a903b4221e03c603b52229226100b1226522642320232100f72248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp862",
            "05d005d105d205d305d405d505d605d705d805d905da05db05dc05dd05de05df05e005e105e205e305e405e505e605e7" +
            "05e805e905ea00a200a300a520a7019200e100ed00f300fa00f100d100aa00ba00bf231000ac00bd00bc00a100ab00bb" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "03b100df039303c003a303c300b503c403a6039803a903b4221e03c603b52229226100b1226522642320232100f72248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp863",
            "00c700fc00e900e200c200e000b600e700ea00eb00e800ef00ee201700c000a700c900c800ca00f400cb00cf00fb00f9" +
            "00a400d400dc00a200a300d900db019200a600b400f300fa00a800b800b300af00ce231000ac00bd00bc00be00ab00bb" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "03b100df039303c003a303c300b503c403a6039803a903b4221e03c603b52229226100b1226522642320232100f72248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp864",
            "0000000100020003000400050006000700080009000a000b000c000d000e000f00100011001200130014001500160017" +
            "00180019001a001b001c001d001e001f00200021002200230024066a0026002700280029002a002b002c002d002e002f" +
            "0030003100320033003400350036003700380039003a003b003c003d003e003f00400041004200430044004500460047" +
            "00480049004a004b004c004d004e004f0050005100520053005400550056005700580059005a005b005c005d005e005f" +
            "0060006100620063006400650066006700680069006a006b006c006d006e006f00700071007200730074007500760077" +
            "00780079007a007b007c007d007e007f00b000b72219221a259225002502253c2524252c251c25342510250c25142518" +
            "03b2221e03c600b100bd00bc224800ab00bbfef7fef8fffefffefefbfefcfffe00a000adfe8200a300a4fe84fffefffe" +
            "fe8efe8ffe95fe99060cfe9dfea1fea50660066106620663066406650666066706680669fed1061bfeb1feb5feb9061f" +
            "00a2fe80fe81fe83fe85fecafe8bfe8dfe91fe93fe97fe9bfe9ffea3fea7fea9feabfeadfeaffeb3feb7febbfebffec1" +
            "fec5fecbfecf00a600ac00f700d7fec90640fed3fed7fedbfedffee3fee7feebfeedfeeffef3febdfeccfecefecdfee1" +
            "fe7d0651fee5fee9feecfef0fef2fed0fed5fef5fef6feddfed9fef125a0fffe",
        "cp865",
            "00c700fc00e900e200e400e000e500e700ea00eb00e800ef00ee00ec00c400c500c900e600c600f400f600f200fb00f9" +
            "00ff00d600dc00f800a300d820a7019200e100ed00f300fa00f100d100aa00ba00bf231000ac00bd00bc00a100ab00a4" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "03b100df039303c003a303c300b503c403a6039803a903b4221e03c603b52229226100b1226522642320232100f72248" +
            "00b0221900b7221a207f00b225a000a0",
        "cp866",
            "0410041104120413041404150416041704180419041a041b041c041d041e041f04200421042204230424042504260427" +
            "04280429042a042b042c042d042e042f0430043104320433043404350436043704380439043a043b043c043d043e043f" +
            "259125922593250225242561256225562555256325512557255d255c255b251025142534252c251c2500253c255e255f" +
            "255a25542569256625602550256c25672568256425652559255825522553256b256a2518250c25882584258c25902580" +
            "0440044104420443044404450446044704480449044a044b044c044d044e044f040104510404045404070457040e045e" +
            "00b0221900b7221a211600a425a000a0",
        "cp869",
            "fffefffefffefffefffefffe0386fffe00b700ac00a620182019038820150389038a03aa038cfffefffe038e03ab00a9" +
            "038f00b200b303ac00a303ad03ae03af03ca039003cc03cd039103920393039403950396039700bd0398039900ab00bb" +
            "25912592259325022524039a039b039c039d256325512557255d039e039f251025142534252c251c2500253c03a003a1" +
            "255a25542569256625602550256c03a303a403a503a603a703a803a903b103b203b32518250c2588258403b403b52580" +
            "03b603b703b803b903ba03bb03bc03bd03be03bf03c003c103c303c203c4038400ad00b103c503c603c700a703c80385" +
            "00b000a803c903cb03b003ce25a000a0",
        "cp874",
            "20acfffefffefffefffe2026fffefffefffefffefffefffefffefffefffefffefffe20182019201c201d202220132014" +
            "fffefffefffefffefffefffefffefffe00a00e010e020e030e040e050e060e070e080e090e0a0e0b0e0c0e0d0e0e0e0f" +
            "0e100e110e120e130e140e150e160e170e180e190e1a0e1b0e1c0e1d0e1e0e1f0e200e210e220e230e240e250e260e27" +
            "0e280e290e2a0e2b0e2c0e2d0e2e0e2f0e300e310e320e330e340e350e360e370e380e390e3afffefffefffefffe0e3f" +
            "0e400e410e420e430e440e450e460e470e480e490e4a0e4b0e4c0e4d0e4e0e4f0e500e510e520e530e540e550e560e57" +
            "0e580e590e5a0e5bfffefffefffefffe",
        "cp875",
            "0000000100020003009c00090086007f0097008d008e000b000c000d000e000f0010001100120013009d008500080087" +
            "001800190092008f001c001d001e001f00800081008200830084000a0017001b00880089008a008b008c000500060007" +
            "0090009100160093009400950096000400980099009a009b00140015009e001a00200391039203930394039503960397" +
            "03980399005b002e003c0028002b00210026039a039b039c039d039e039f03a003a103a3005d0024002a0029003b005e" +
            "002d002f03a403a503a603a703a803a903aa03ab007c002c0025005f003e003f00a803860388038900a0038a038c038e" +
            "038f0060003a002300400027003d0022038500610062006300640065006600670068006903b103b203b303b403b503b6" +
            "00b0006a006b006c006d006e006f00700071007203b703b803b903ba03bb03bc00b4007e007300740075007600770078" +
            "0079007a03bd03be03bf03c003c103c300a303ac03ad03ae03ca03af03cc03cd03cb03ce03c203c403c503c603c703c8" +
            "007b00410042004300440045004600470048004900ad03c9039003b020182015007d004a004b004c004d004e004f0050" +
            "0051005200b100bd001a0387201900a6005c001a0053005400550056005700580059005a00b200a7001a001a00ab00ac" +
            "003000310032003300340035003600370038003900b300a9001a001a00bb009f",
        "hp-roman8",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a000c000c200c800ca00cb00ce00cf00b402cb02c600a802dc00d900db20a4" +
            "00af00dd00fd00b000c700e700d100f100a100bf00a400a300a500a7019200a200e200ea00f400fb00e100e900f300fa" +
            "00e000e800f200f900e400eb00f600fc00c500ee00d800c600e500ed00f800e600c400ec00d600dc00c900ef00df00d4" +
            "00c100c300e300d000f000cd00cc00d300d200d500f50160016100da017800ff00de00fe00b700b500b600be201400bc" +
            "00bd00aa00ba00ab25a000bb00b1fffe",
        "iso8859-1",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a000a100a200a300a400a500a600a700a800a900aa00ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900ba00bb00bc00bd00be00bf00c000c100c200c300c400c500c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf00d000d100d200d300d400d500d600d700d800d900da00db00dc00dd00de00df" +
            "00e000e100e200e300e400e500e600e700e800e900ea00eb00ec00ed00ee00ef00f000f100f200f300f400f500f600f7" +
            "00f800f900fa00fb00fc00fd00fe00ff",
        "iso8859-10",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a0010401120122012a0128013600a7013b011001600166017d00ad016a014a" +
            "00b0010501130123012b0129013700b7013c011101610167017e2015016b014b010000c100c200c300c400c500c6012e" +
            "010c00c9011800cb011600cd00ce00cf00d00145014c00d300d400d500d6016800d8017200da00db00dc00dd00de00df" +
            "010100e100e200e300e400e500e6012f010d00e9011900eb011700ed00ee00ef00f00146014d00f300f400f500f60169" +
            "00f8017300fa00fb00fc00fd00fe0138",
        "iso8859-11",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a00e010e020e030e040e050e060e070e080e090e0a0e0b0e0c0e0d0e0e0e0f" +
            "0e100e110e120e130e140e150e160e170e180e190e1a0e1b0e1c0e1d0e1e0e1f0e200e210e220e230e240e250e260e27" +
            "0e280e290e2a0e2b0e2c0e2d0e2e0e2f0e300e310e320e330e340e350e360e370e380e390e3afffefffefffefffe0e3f" +
            "0e400e410e420e430e440e450e460e470e480e490e4a0e4b0e4c0e4d0e4e0e4f0e500e510e520e530e540e550e560e57" +
            "0e580e590e5a0e5bfffefffefffefffe",
        "iso8859-13",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a0201d00a200a300a4201e00a600a700d800a9015600ab00ac00ad00ae00c6" +
            "00b000b100b200b3201c00b500b600b700f800b9015700bb00bc00bd00be00e60104012e0100010600c400c501180112" +
            "010c00c90179011601220136012a013b01600143014500d3014c00d500d600d701720141015a016a00dc017b017d00df" +
            "0105012f0101010700e400e501190113010d00e9017a011701230137012b013c01610144014600f3014d00f500f600f7" +
            "01730142015b016b00fc017c017e2019",
        "iso8859-14",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a01e021e0300a3010a010b1e0a00a71e8000a91e821e0b1ef200ad00ae0178" +
            "1e1e1e1f012001211e401e4100b61e561e811e571e831e601ef31e841e851e6100c000c100c200c300c400c500c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf017400d100d200d300d400d500d61e6a00d800d900da00db00dc00dd017600df" +
            "00e000e100e200e300e400e500e600e700e800e900ea00eb00ec00ed00ee00ef017500f100f200f300f400f500f61e6b" +
            "00f800f900fa00fb00fc00fd017700ff",
        "iso8859-15",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a000a100a200a320ac00a5016000a7016100a900aa00ab00ac00ad00ae00af" +
            "00b000b100b200b3017d00b500b600b7017e00b900ba00bb01520153017800bf00c000c100c200c300c400c500c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf00d000d100d200d300d400d500d600d700d800d900da00db00dc00dd00de00df" +
            "00e000e100e200e300e400e500e600e700e800e900ea00eb00ec00ed00ee00ef00f000f100f200f300f400f500f600f7" +
            "00f800f900fa00fb00fc00fd00fe00ff",
        "iso8859-16",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a001040105014120ac201e016000a7016100a9021800ab017900ad017a017b" +
            "00b000b1010c0142017d201d00b600b7017e010d021900bb015201530178017c00c000c100c2010200c4010600c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf0110014300d200d300d4015000d6015a017000d900da00db00dc0118021a00df" +
            "00e000e100e2010300e4010700e600e700e800e900ea00eb00ec00ed00ee00ef0111014400f200f300f4015100f6015b" +
            "017100f900fa00fb00fc0119021b00ff",
        "iso8859-2",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a0010402d8014100a4013d015a00a700a80160015e0164017900ad017d017b" +
            "00b0010502db014200b4013e015b02c700b80161015f0165017a02dd017e017c015400c100c2010200c40139010600c7" +
            "010c00c9011800cb011a00cd00ce010e01100143014700d300d4015000d600d70158016e00da017000dc00dd016200df" +
            "015500e100e2010300e4013a010700e7010d00e9011900eb011b00ed00ee010f01110144014800f300f4015100f600f7" +
            "0159016f00fa017100fc00fd016302d9",
        "iso8859-3",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a0012602d800a300a4fffe012400a700a80130015e011e013400adfffe017b" +
            "00b0012700b200b300b400b5012500b700b80131015f011f013500bdfffe017c00c000c100c2fffe00c4010a010800c7" +
            "00c800c900ca00cb00cc00cd00ce00cffffe00d100d200d300d4012000d600d7011c00d900da00db00dc016c015c00df" +
            "00e000e100e2fffe00e4010b010900e700e800e900ea00eb00ec00ed00ee00effffe00f100f200f300f4012100f600f7" +
            "011d00f900fa00fb00fc016d015d02d9",
        "iso8859-4",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a001040138015600a40128013b00a700a8016001120122016600ad017d00af" +
            "00b0010502db015700b40129013c02c700b80161011301230167014a017e014b010000c100c200c300c400c500c6012e" +
            "010c00c9011800cb011600cd00ce012a01100145014c013600d400d500d600d700d8017200da00db00dc0168016a00df" +
            "010100e100e200e300e400e500e6012f010d00e9011900eb011700ed00ee012b01110146014d013700f400f500f600f7" +
            "00f8017300fa00fb00fc0169016b02d9",
        "iso8859-5",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a0040104020403040404050406040704080409040a040b040c00ad040e040f" +
            "0410041104120413041404150416041704180419041a041b041c041d041e041f04200421042204230424042504260427" +
            "04280429042a042b042c042d042e042f0430043104320433043404350436043704380439043a043b043c043d043e043f" +
            "0440044104420443044404450446044704480449044a044b044c044d044e044f21160451045204530454045504560457" +
            "04580459045a045b045c00a7045e045f",
        "iso8859-6",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a0fffefffefffe00a4fffefffefffefffefffefffefffe060c00adfffefffe" +
            "fffefffefffefffefffefffefffefffefffefffefffe061bfffefffefffe061ffffe0621062206230624062506260627" +
            "06280629062a062b062c062d062e062f0630063106320633063406350636063706380639063afffefffefffefffefffe" +
            "0640064106420643064406450646064706480649064a064b064c064d064e064f065006510652fffefffefffefffefffe" +
            "fffefffefffefffefffefffefffefffe",
        "iso8859-7",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a02018201900a320ac20af00a600a700a800a9037a00ab00ac00adfffe2015" +
            "00b000b100b200b303840385038600b703880389038a00bb038c00bd038e038f03900391039203930394039503960397" +
            "03980399039a039b039c039d039e039f03a003a1fffe03a303a403a503a603a703a803a903aa03ab03ac03ad03ae03af" +
            "03b003b103b203b303b403b503b603b703b803b903ba03bb03bc03bd03be03bf03c003c103c203c303c403c503c603c7" +
            "03c803c903ca03cb03cc03cd03cefffe",
        "iso8859-8",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a0fffe00a200a300a400a500a600a700a800a900d700ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900f700bb00bc00bd00befffefffefffefffefffefffefffefffefffe" +
            "fffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffefffe2017" +
            "05d005d105d205d305d405d505d605d705d805d905da05db05dc05dd05de05df05e005e105e205e305e405e505e605e7" +
            "05e805e905eafffefffe200e200ffffe",
        "iso8859-9",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009f00a000a100a200a300a400a500a600a700a800a900aa00ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900ba00bb00bc00bd00be00bf00c000c100c200c300c400c500c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf011e00d100d200d300d400d500d600d700d800d900da00db00dc0130015e00df" +
            "00e000e100e200e300e400e500e600e700e800e900ea00eb00ec00ed00ee00ef011f00f100f200f300f400f500f600f7" +
            "00f800f900fa00fb00fc0131015f00ff",
        "koi8-r",
            "25002502250c251025142518251c2524252c2534253c258025842588258c2590259125922593232025a02219221a2248" +
            "2264226500a0232100b000b200b700f725502551255204512553255425552556255725582559255a255b255c255d255e" +
            "255f25602561040125622563256425652566256725682569256a256b256c00a9044e0430043104460434043504440433" +
            "044504380439043a043b043c043d043e043f044f044004410442044304360432044c044b04370448044d04490447044a" +
            "042e0410041104260414041504240413042504180419041a041b041c041d041e041f042f042004210422042304160412" +
            "042c042b04170428042d04290427042a",
        "koi8-t",
            "049b0493201a0492201e202620202021fffe203004b3203904b204b704b6fffe049a20182019201c201d202220132014" +
            "fffe2122fffe203afffefffefffefffefffe04ef04ee045100a404e300a600a7fffefffefffe00ab00ac00ad00aefffe" +
            "00b000b100b20401fffe04e200b600b7fffe2116fffe00bbfffefffefffe00a9044e0430043104460434043504440433" +
            "044504380439043a043b043c043d043e043f044f044004410442044304360432044c044b04370448044d04490447044a" +
            "042e0410041104260414041504240413042504180419041a041b041c041d041e041f042f042004210422042304160412" +
            "042c042b04170428042d04290427042a",
        "koi8-u",
            "25002502250c251025142518251c2524252c2534253c258025842588258c2590259125922593232025a02219221a2248" +
            "2264226500a0232100b000b200b700f725502551255204510454255404560457255725582559255a255b0491255d255e" +
            "255f25602561040104042563040604072566256725682569256a0490256c00a9044e0430043104460434043504440433" +
            "044504380439043a043b043c043d043e043f044f044004410442044304360432044c044b04370448044d04490447044a" +
            "042e0410041104260414041504240413042504180419041a041b041c041d041e041f042f042004210422042304160412" +
            "042c042b04170428042d04290427042a",
        "kz1048",
            "04020403201a0453201e20262020202120ac203004092039040a049a04ba040f045220182019201c201d202220132014" +
            "fffe21220459203a045a049b04bb045f00a004b004b104d800a404e800a600a7040100a9049200ab00ac00ad00ae04ae" +
            "00b000b10406045604e900b500b600b704512116049300bb04d904a204a304af04100411041204130414041504160417" +
            "04180419041a041b041c041d041e041f0420042104220423042404250426042704280429042a042b042c042d042e042f" +
            "0430043104320433043404350436043704380439043a043b043c043d043e043f04400441044204430444044504460447" +
            "04480449044a044b044c044d044e044f",
        "mac-arabic",
            "00c400a000c700c900d100d600dc00e100e000e200e406ba00ab00e700e900e800ea00eb00ed202600ee00ef00f100f3" +
            "00bb00f400f600f700fa00f900fb00fc00200021002200230024066a0026002700280029002a002b060c002d002e002f" +
            "0660066106620663066406650666066706680669003a061b003c003d003e061f274a0621062206230624062506260627" +
            "06280629062a062b062c062d062e062f0630063106320633063406350636063706380639063a005b005c005d005e005f" +
            "0640064106420643064406450646064706480649064a064b064c064d064e064f065006510652067e0679068606d506a4" +
            "06af06880691007b007c007d069806d2",
        "mac-croatian",
            "00c400c500c700c900d100d600dc00e100e000e200e400e300e500e700e900e800ea00eb00ed00ec00ee00ef00f100f3" +
            "00f200f400f600f500fa00f900fb00fc202000b000a200a300a7202200b600df00ae0160212200b400a82260017d00d8" +
            "221e00b122642265220600b522022211220f0161222b00aa00ba03a9017e00f800bf00a100ac221a01922248010600ab" +
            "010c202600a000c000c300d50152015301102014201c201d2018201900f725caf8ff00a9204420ac2039203a00c600bb" +
            "201300b7201a201e203000c2010700c1010d00c800cd00ce00cf00cc00d300d4011100d200da00db00d9013102c602dc" +
            "00af03c000cb02da00b800ca00e602c7",
        "mac-cyrillic",
            "0410041104120413041404150416041704180419041a041b041c041d041e041f04200421042204230424042504260427" +
            "04280429042a042b042c042d042e042f202000b0049000a300a7202200b6040600ae00a9212204020452226004030453" +
            "221e00b122642265045600b504910408040404540407045704090459040a045a0458040500ac221a01922248220600ab" +
            "00bb202600a0040b045b040c045c045520132014201c201d2018201900f7201e040e045e040f045f211604010451044f" +
            "0430043104320433043404350436043704380439043a043b043c043d043e043f04400441044204430444044504460447" +
            "04480449044a044b044c044d044e20ac",
        "mac-farsi",
            "00c400a000c700c900d100d600dc00e100e000e200e406ba00ab00e700e900e800ea00eb00ed202600ee00ef00f100f3" +
            "00bb00f400f600f700fa00f900fb00fc00200021002200230024066a0026002700280029002a002b060c002d002e002f" +
            "06f006f106f206f306f406f506f606f706f806f9003a061b003c003d003e061f274a0621062206230624062506260627" +
            "06280629062a062b062c062d062e062f0630063106320633063406350636063706380639063a005b005c005d005e005f" +
            "0640064106420643064406450646064706480649064a064b064c064d064e064f065006510652067e0679068606d506a4" +
            "06af06880691007b007c007d069806d2",
        "mac-greek",
            "00c400b900b200c900b300d600dc038500e000e200e4038400a800e700e900e800ea00eb00a3212200ee00ef202200bd" +
            "203000f400f600a620ac00f900fb00fc2020039303940398039b039e03a000df00ae00a903a303aa00a7226000b000b7" +
            "039100b12264226500a503920395039603970399039a039c03a603ab03a803a903ac039d00ac039f03a1224803a400ab" +
            "00bb202600a003a503a703860388015320132015201c201d2018201900f70389038a038c038e03ad03ae03af03cc038f" +
            "03cd03b103b203c803b403b503c603b303b703b903be03ba03bb03bc03bd03bf03c003ce03c103c303c403b803c903c2" +
            "03c703c503b603ca03cb039003b000ad",
        "mac-iceland",
            "00c400c500c700c900d100d600dc00e100e000e200e400e300e500e700e900e800ea00eb00ed00ec00ee00ef00f100f3" +
            "00f200f400f600f500fa00f900fb00fc00dd00b000a200a300a7202200b600df00ae00a9212200b400a8226000c600d8" +
            "221e00b12264226500a500b522022211220f03c0222b00aa00ba03a900e600f800bf00a100ac221a01922248220600ab" +
            "00bb202600a000c000c300d50152015320132014201c201d2018201900f725ca00ff0178204420ac00d000f000de00fe" +
            "00fd00b7201a201e203000c200ca00c100cb00c800cd00ce00cf00cc00d300d4f8ff00d200da00db00d9013102c602dc" +
            "00af02d802d902da00b802dd02db02c7",
        "mac-latin2",
            "00c40100010100c9010400d600dc00e10105010c00e4010d0106010700e90179017a010e00ed010f01120113011600f3" +
            "011700f400f600f500fa011a011b00fc202000b0011800a300a7202200b600df00ae00a92122011900a822600123012e" +
            "012f012a22642265012b0136220222110142013b013c013d013e0139013a01450146014300ac221a01440147220600ab" +
            "00bb202600a00148015000d50151014c20132014201c201d2018201900f725ca014d0154015501582039203a01590156" +
            "01570160201a201e0161015a015b00c10164016500cd017d017e016a00d300d4016b016e00da016f0170017101720173" +
            "00dd00fd0137017b0141017c012202c7",
        "mac-roman",
            "00c400c500c700c900d100d600dc00e100e000e200e400e300e500e700e900e800ea00eb00ed00ec00ee00ef00f100f3" +
            "00f200f400f600f500fa00f900fb00fc202000b000a200a300a7202200b600df00ae00a9212200b400a8226000c600d8" +
            "221e00b12264226500a500b522022211220f03c0222b00aa00ba03a900e600f800bf00a100ac221a01922248220600ab" +
            "00bb202600a000c000c300d50152015320132014201c201d2018201900f725ca00ff0178204420ac2039203afb01fb02" +
            "202100b7201a201e203000c200ca00c100cb00c800cd00ce00cf00cc00d300d4f8ff00d200da00db00d9013102c602dc" +
            "00af02d802d902da00b802dd02db02c7",
        "mac-romanian",
            "00c400c500c700c900d100d600dc00e100e000e200e400e300e500e700e900e800ea00eb00ed00ec00ee00ef00f100f3" +
            "00f200f400f600f500fa00f900fb00fc202000b000a200a300a7202200b600df00ae00a9212200b400a8226001020218" +
            "221e00b12264226500a500b522022211220f03c0222b00aa00ba03a90103021900bf00a100ac221a01922248220600ab" +
            "00bb202600a000c000c300d50152015320132014201c201d2018201900f725ca00ff0178204420ac2039203a021a021b" +
            "202100b7201a201e203000c200ca00c100cb00c800cd00ce00cf00cc00d300d4f8ff00d200da00db00d9013102c602dc" +
            "00af02d802d902da00b802dd02db02c7",
        "mac-turkish",
            "00c400c500c700c900d100d600dc00e100e000e200e400e300e500e700e900e800ea00eb00ed00ec00ee00ef00f100f3" +
            "00f200f400f600f500fa00f900fb00fc202000b000a200a300a7202200b600df00ae00a9212200b400a8226000c600d8" +
            "221e00b12264226500a500b522022211220f03c0222b00aa00ba03a900e600f800bf00a100ac221a01922248220600ab" +
            "00bb202600a000c000c300d50152015320132014201c201d2018201900f725ca00ff0178011e011f01300131015e015f" +
            "202100b7201a201e203000c200ca00c100cb00c800cd00ce00cf00cc00d300d4f8ff00d200da00db00d9f8a002c602dc" +
            "00af02d802d902da00b802dd02db02c7",
        "palmos",
            "20ac0081201a0192201e20262020202102c62030016020390152266626632665266020182019201c201d202220132014" +
            "02dc21220161009b0153009d009e017800a000a100a200a300a400a500a600a700a800a900aa00ab00ac00ad00ae00af" +
            "00b000b100b200b300b400b500b600b700b800b900ba00bb00bc00bd00be00bf00c000c100c200c300c400c500c600c7" +
            "00c800c900ca00cb00cc00cd00ce00cf00d000d100d200d300d400d500d600d700d800d900da00db00dc00dd00de00df" +
            "00e000e100e200e300e400e500e600e700e800e900ea00eb00ec00ed00ee00ef00f000f100f200f300f400f500f600f7" +
            "00f800f900fa00fb00fc00fd00fe00ff",
        "ptcp154",
            "0496049204ee0493201e202604b604ae04b204af04a004e204a2049a04ba04b8049720182019201c201d202220132014" +
            "04b304b704a104e304a3049b04bb04b900a0040e045e040804e8049804b000a7040100a904d800ab00ac04ef00ae049c" +
            "00b004b104060456049904e900b600b70451211604d900bb045804aa04ab049d04100411041204130414041504160417" +
            "04180419041a041b041c041d041e041f0420042104220423042404250426042704280429042a042b042c042d042e042f" +
            "0430043104320433043404350436043704380439043a043b043c043d043e043f04400441044204430444044504460447" +
            "04480449044a044b044c044d044e044f",
        "tis-620",
            "0080008100820083008400850086008700880089008a008b008c008d008e008f00900091009200930094009500960097" +
            "00980099009a009b009c009d009e009ffffe0e010e020e030e040e050e060e070e080e090e0a0e0b0e0c0e0d0e0e0e0f" +
            "0e100e110e120e130e140e150e160e170e180e190e1a0e1b0e1c0e1d0e1e0e1f0e200e210e220e230e240e250e260e27" +
            "0e280e290e2a0e2b0e2c0e2d0e2e0e2f0e300e310e320e330e340e350e360e370e380e390e3afffefffefffefffe0e3f" +
            "0e400e410e420e430e440e450e460e470e480e490e4a0e4b0e4c0e4d0e4e0e4f0e500e510e520e530e540e550e560e57" +
            "0e580e590e5a0e5bfffefffefffefffe",
    };

    static {
        for (int i = 0; i < ALIASES.length; i += 2) {
            ALIAS_MAP.put(ALIASES[i], ALIASES[i + 1]);
        }
        for (int i = 0; i < MODULES.length; i += 2) {
            MODULE_MAP.put(MODULES[i], MODULES[i + 1]);
        }
        for (int i = 0; i < TABLES.length; i += 2) {
            TABLE_MAP.put(TABLES[i], TABLES[i + 1]);
        }
    }
}

// Generator of the data above (run it with CPython 3.13 and paste its output in place):
//
// # Generates PythonCodecs.java data from the running CPython (3.13).
// import codecs, encodings, encodings.aliases, importlib, pkgutil, sys
// mods = []
// for m in sorted(pkgutil.iter_modules(encodings.__path__), key=lambda m: m.name):
//     try:
//         mod = importlib.import_module("encodings." + m.name)
//         ci = mod.getregentry()
//     except Exception:
//         continue
//     if not isinstance(ci, codecs.CodecInfo):
//         continue
//     mods.append((m.name, ci.name, getattr(ci, "_is_text_encoding", True), getattr(mod, "decoding_table", None)))
// aliases = sorted(encodings.aliases.aliases.items())
// tables = {}
// for _, name, text, table in mods:
//     if isinstance(table, str) and len(table) == 256:
//         tables[name] = table
// 
// def jstr(s):
//     return '"' + s + '"'
// 
// out = []
// w = out.append
// w("    /** {@code encodings.aliases.aliases} of CPython %s: alias, module name, alias, module name, ... */" % sys.version.split()[0])
// w("    private static final String[] ALIASES = {")
// line = "       "
// for k, v in aliases:
//     item = " %s, %s," % (jstr(k), jstr(v))
//     if len(line) + len(item) > 110:
//         w(line); line = "       "
//     line += item
// w(line)
// w("    };")
// w("")
// w("    /** Modules of the {@code encodings} package that CPython %s can import on Linux: module name, codec name; a codec name starting with '!' is not a text encoding. */" % sys.version.split()[0])
// w("    private static final String[] MODULES = {")
// line = "       "
// for mn, name, text, _ in mods:
//     item = " %s, %s," % (jstr(mn), jstr(name if text else "!" + name))
//     if len(line) + len(item) > 110:
//         w(line); line = "       "
//     line += item
// w(line)
// w("    };")
// w("")
// w("    /**")
// w("     * Decoding tables of CPython's single-byte codecs (the modules' {@code decoding_table}), as 4 hex digits per")
// w("     * byte value, U+FFFE meaning undefined. A table of 128 entries covers bytes 0x80-0xFF (0x00-0x7F are ASCII).")
// w("     */")
// w("    private static final String[] TABLES = {")
// ident = "".join(map(chr, range(128)))
// for name in sorted(tables):
//     t = tables[name]
//     if t[:128] == ident:
//         t = t[128:]
//     hx = "".join("%04x" % ord(c) for c in t)
//     w("        %s," % jstr(name))
//     chunks = [hx[i:i+96] for i in range(0, len(hx), 96)]
//     for i, c in enumerate(chunks):
//         w("            " + jstr(c) + (" +" if i < len(chunks) - 1 else ","))
// w("    };")
// print("\n".join(out))
