package dev.graphmend.passes.config;

import java.nio.file.Path;

/**
 * The torch release the rules follow, and where it came from (docs/configuration.md, "Where the
 * torch version comes from"): a setting, the torch installed in the project's environment, the
 * project's pin, or the default. The front ends show where it came from, so that a fix withheld
 * for an older torch is never a mystery.
 *
 * @param version what the rules follow: as written for a setting ({@code "2.11.0+cpu"}),
 *                MAJOR.MINOR when read from an environment or a pin
 * @param origin which kind of source gave it
 * @param source what gave it, in words: {@code torch 2.10.0 installed in /p/.venv},
 *               {@code pin torch==2.10.0 in /p/requirements.txt}, {@code --torch-version}
 * @param evidence the file or folder it was read from when {@code source} does not name it (a
 *                 {@code torch-2.10.0.dist-info} folder), or null
 */
public record TorchVersion(String version, Origin origin, String source, Path evidence) {

    /** The oldest release whose behaviour the rules were observed on (docs/configuration.md). */
    public static final String OLDEST_OBSERVED = "2.8";

    public enum Origin {
        /** {@code torch-version} in [tool.graphmend], the editor's settings, or {@code --torch-version} */
        CONFIGURED,
        /** the torch installed in an environment of the project */
        INSTALLED,
        /** a lock file, requirements file or {@code [project] dependencies} */
        PINNED,
        /** nothing said: the newest release the rules know */
        DEFAULT
    }

    public TorchVersion {
        AnalysisConfig.parseVersion(version); // validates
        if (origin == null || source == null) throw new IllegalArgumentException("a torch version needs its origin and source");
    }

    /** The newest release the rules know, when nothing says otherwise. */
    public static TorchVersion newest() {
        return new TorchVersion(AnalysisConfig.NEWEST_TORCH, Origin.DEFAULT, "default: the newest release the rules know", null);
    }

    /** A version a setting gave; {@code where} names the setting ({@code --torch-version}). */
    public static TorchVersion configured(String version, String where) {
        return new TorchVersion(version, Origin.CONFIGURED, where, null);
    }

    public boolean isDefault() {
        return origin == Origin.DEFAULT;
    }

    /** MAJOR.MINOR: {@code "2.11.0+cpu"} → {@code "2.11"}. */
    public String minor() {
        int[] v = AnalysisConfig.parseVersion(version);
        return v[0] + "." + v[1];
    }

    /** One line for a summary or a hover: {@code torch-version 2.10 (torch 2.10.0 installed in /p/.venv)}. */
    public String brief() {
        return "torch-version " + minor() + " (" + source + ")";
    }

    /** The source with the file it was read from: {@code torch 2.10.0 installed in /p/.venv (/p/.venv/lib/…/torch-2.10.0.dist-info)}. */
    public String describe() {
        return evidence == null ? source : source + " (" + evidence + ")";
    }

    /**
     * The warning for a release older than any the rules were observed on, or null: the rules then
     * follow the oldest observed one, which the user should know rather than trust blindly.
     */
    public String olderThanObservedWarning() {
        int[] oldest = AnalysisConfig.parseVersion(OLDEST_OBSERVED), v = AnalysisConfig.parseVersion(version);
        if (v[0] > oldest[0] || (v[0] == oldest[0] && v[1] >= oldest[1])) return null;
        return brief() + " is older than torch " + OLDEST_OBSERVED + ", the oldest release the rules were observed on;"
                + " they follow " + OLDEST_OBSERVED + "'s behaviour, which may differ from this release's";
    }
}
