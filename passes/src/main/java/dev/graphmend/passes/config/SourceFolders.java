package dev.graphmend.passes.config;

import java.util.Set;

/**
 * Which folders hold no project code, for every walk over a project's files: {@code graphmend
 * check} and {@code fix} over a folder, and the language server's workspace index, so that both
 * see the same files (README.md, "Which files are read"). ruff's default excludes, Python's
 * caches, hidden folders, and any folder holding a {@code pyvenv.cfg} (a virtual environment
 * under another name).
 * A file named on the command line is always read; only what a walk finds is filtered.
 * {@link FileSelection} applies them, with the project's {@code exclude} keys.
 */
public final class SourceFolders {
    private SourceFolders() {}

    /** ruff's {@code exclude} default (folders), and {@code __pycache__}. */
    public static final Set<String> EXCLUDED = Set.of(
            ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache",
            ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv",
            ".vscode", "__pycache__", "__pypackages__", "_build", "buck-out", "build", "dist", "node_modules",
            "site-packages", "venv");
}
