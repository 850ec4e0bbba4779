package dev.graphmend.passes.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The torch a Python environment has installed, read from its packaging metadata: the
 * {@code Version:} header of {@code torch-*.dist-info/METADATA} (or {@code torch-*.egg-info/PKG-INFO}),
 * the folder's name when that cannot be read. torch is never imported: importing it takes seconds
 * and may initialise a GPU.
 */
final class InstalledTorch {
    private InstalledTorch() {}

    /** A torch found: its version as installed ({@code 2.10.0+cpu}) and the metadata folder it was read from. */
    record Found(String version, Path metadata) {}

    /** {@code torch-2.10.0.dist-info}, {@code torch-2.10.0+cpu.dist-info}, {@code torch-2.10.0-py3.11.egg-info}; not torchvision's. */
    private static final Pattern METADATA_DIR = Pattern.compile("torch-([0-9][^-]*?)(?:-py[0-9.]+)?\\.(dist-info|egg-info)");

    /** The first of {@code siteDirs} (in order, as Python searches them) that holds torch, or null. */
    static Found in(List<Path> siteDirs) {
        for (Path dir : siteDirs) {
            Found f = inDir(dir);
            if (f != null) return f;
        }
        return null;
    }

    /** The torch installed in one site directory, or null. */
    static Found inDir(Path dir) {
        if (!Files.isDirectory(dir)) return null;
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "torch-*")) {
            for (Path p : s) if (METADATA_DIR.matcher(p.getFileName().toString()).matches()) candidates.add(p);
        } catch (IOException | UncheckedIOException e) {
            return null; // unreadable: as if absent
        }
        candidates.sort(null); // a stable choice when an interrupted upgrade left two
        for (Path p : candidates) {
            Matcher m = METADATA_DIR.matcher(p.getFileName().toString());
            if (!m.matches()) continue;
            String version = headerVersion(p, m.group(2).equals("dist-info") ? "METADATA" : "PKG-INFO");
            if (version == null) version = m.group(1);
            if (valid(version)) return new Found(version, p);
        }
        return null;
    }

    /** The site-packages folders of a virtual environment's prefix (POSIX and Windows layouts). */
    static List<Path> venvSiteDirs(Path prefix) {
        List<Path> out = new ArrayList<>();
        Path lib = prefix.resolve("lib");
        if (Files.isDirectory(lib)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(lib, "python3*")) {
                for (Path p : s) out.add(p.resolve("site-packages"));
            } catch (IOException | UncheckedIOException e) {
                // unreadable: nothing there
            }
            out.sort(null);
        }
        out.add(prefix.resolve("Lib").resolve("site-packages"));
        return out;
    }

    /** Whether {@code dir} is a virtual environment's prefix: it holds a {@code pyvenv.cfg}. */
    static boolean isVenv(Path dir) {
        return dir != null && Files.isRegularFile(dir.resolve("pyvenv.cfg"));
    }

    /**
     * The prefix of the virtual environment whose interpreter {@code executable} is
     * ({@code <prefix>/bin/python}, {@code <prefix>\Scripts\python.exe}), or null when it is not one.
     * The link is not followed: a venv's python is a link to the base interpreter.
     */
    static Path venvOf(Path executable) {
        Path bin = executable.toAbsolutePath().normalize().getParent();
        Path prefix = bin == null ? null : bin.getParent();
        return isVenv(prefix) ? prefix : null;
    }

    private static String headerVersion(Path metadataDir, String file) {
        // an old distutils install writes the egg-info as one file, the PKG-INFO text itself
        Path p = Files.isDirectory(metadataDir) ? metadataDir.resolve(file) : metadataDir;
        try (var in = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
            // the headers end at the first blank line; the long description after it is not read
            for (String line; (line = in.readLine()) != null && !line.isEmpty(); ) {
                if (line.regionMatches(true, 0, "Version:", 0, 8)) return line.substring(8).trim();
            }
        } catch (IOException | UncheckedIOException e) {
            // no readable metadata: the folder's name says the version
        }
        return null;
    }

    private static boolean valid(String version) {
        try {
            AnalysisConfig.parseVersion(version);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
