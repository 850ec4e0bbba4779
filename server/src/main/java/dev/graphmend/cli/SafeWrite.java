package dev.graphmend.cli;

import dev.graphmend.ir.source.SourceText;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Replaces a source file with its fixed text so that nothing but the fixed lines changes: the same
 * encoding, UTF-8 BOM, line endings, permissions and owner, and the old file or the new one (never
 * half of one) for any reader; a file with several hard links keeps them all, written in place.
 * A file it may not or cannot write this way is left as it is.
 */
final class SafeWrite {
    /** A write refused before anything was touched; the message says why. */
    static final class Refused extends IOException {
        Refused(String reason) { super(reason); }
    }

    private static final Set<PosixFilePermission> WRITE_BITS =
            EnumSet.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private SafeWrite() {}

    /**
     * The fixed text with the file's own line endings. The engine inserts lines ending in LF
     * whatever the file uses; the lines a fix added or changed get the file's dominant ending
     * (CRLF, CR or LF), and the lines it left alone keep theirs, so a file of mixed endings
     * changes only where it was fixed.
     */
    static String withOriginalEndings(String original, String fixed) {
        String eol = dominantEnding(original);
        if (eol.equals("\n")) return fixed;
        List<String> before = lines(original), after = lines(fixed);
        boolean[] kept = new boolean[after.size()];
        // the lines common to both, in order (a longest common subsequence, as a diff finds it)
        int i = 0;
        for (var delta : com.github.difflib.DiffUtils.diff(before, after).getDeltas()) {
            int from = delta.getTarget().getPosition();
            for (; i < from; i++) kept[i] = true;
            i = from + delta.getTarget().size();
        }
        for (; i < after.size(); i++) kept[i] = true;
        StringBuilder sb = new StringBuilder(fixed.length() + after.size());
        for (int k = 0; k < after.size(); k++) {
            String line = after.get(k);
            boolean bareLf = line.endsWith("\n") && !line.endsWith("\r\n");
            sb.append(!kept[k] && bareLf ? line.substring(0, line.length() - 1) + eol : line);
        }
        return sb.toString();
    }

    /** The line ending used most in the text; LF when there is none or a tie with LF. */
    static String dominantEnding(String text) {
        int lf = 0, crlf = 0, cr = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') lf++;
            else if (c == '\r') {
                if (i + 1 < text.length() && text.charAt(i + 1) == '\n') { crlf++; i++; } else cr++;
            }
        }
        if (crlf > lf && crlf >= cr) return "\r\n";
        if (cr > lf && cr > crlf) return "\r";
        return "\n";
    }

    /** The text's lines, each with its line break (LF, CRLF or CR) if it has one. */
    static List<String> lines(String text) {
        List<String> out = new java.util.ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
            if (c == '\n' || c == '\r') {
                out.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) out.add(text.substring(start));
        return out;
    }

    /**
     * A rewrite ready to be written: the file the path leads to (through symbolic links), the
     * bytes read from it and the bytes it gets: both what {@code fix} writes and what its
     * {@code --diff} shows.
     */
    record Prepared(Path target, byte[] before, byte[] after) {}

    /**
     * The bytes {@code file} (through a symbolic link: its target) gets for {@code text}, which
     * must be the engine's {@code original} text with fixes applied (and
     * {@link #withOriginalEndings} already applied): the original's encoding and UTF-8 BOM, every
     * untouched byte the same. Throws {@link Refused}
     * when the file changed since {@code original} was read from it or its encoding cannot be
     * written back byte for byte, and the file system's exception when it cannot be read.
     */
    static Prepared prepare(Path file, String original, String text) throws IOException {
        Path target = file.toRealPath();
        byte[] bytes = Files.readAllBytes(target);
        SourceText decoded = SourceText.decode(bytes);
        if (!decoded.text().equals(original)) throw new Refused("the file changed since it was read");
        Charset cs = charset(decoded.encoding());
        boolean bom = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF;
        byte[] body = bom ? Arrays.copyOfRange(bytes, 3, bytes.length) : bytes;
        // Java's codec of the same name must give back the very bytes CPython decoded, or the
        // lines the fix did not touch would change too.
        if (!decoded.invalidUtf8().isEmpty()) {
            // CPython compiles it (the bytes are in comments), but they have no text to write back
            throw new Refused("it holds bytes that are not UTF-8 (line " + decoded.invalidUtf8().get(0).line()
                    + "), which a rewrite would not keep");
        }
        if (!Arrays.equals(encode(original, cs), body)) {
            throw new Refused("its encoding (" + decoded.encoding() + ") cannot be written back byte for byte");
        }
        byte[] out = encode(text, cs);
        if (out == null) throw new Refused("the fixed text cannot be encoded in " + decoded.encoding());
        if (bom) {
            byte[] withBom = new byte[out.length + 3];
            withBom[0] = (byte) 0xEF; withBom[1] = (byte) 0xBB; withBom[2] = (byte) 0xBF;
            System.arraycopy(out, 0, withBom, 3, out.length);
            out = withBom;
        }
        return new Prepared(target, bytes, out);
    }

    /**
     * Writes a prepared rewrite. A file with one name gets a temporary file in the same folder
     * (owner, group and permissions copied) renamed over it, so any reader sees the old file or
     * the new one. A file with more hard links is rewritten in place, as ruff writes every fixed
     * file, so that it keeps its inode and every name keeps seeing it (a rename would give one
     * name a new file and leave the others on the old text); should that write fail, the old
     * bytes are put back. Throws {@link Refused} for a read-only file, and the file system's
     * exception when a step fails; the original is then untouched.
     */
    static void write(Prepared p) throws IOException {
        Path target = p.target();
        PosixFileAttributes posix = posix(target);
        // Renaming over a file needs only the folder's write permission, and root may write any
        // file: neither says the file may be changed, so a file without a write bit is refused.
        if (!Files.isWritable(target) || posix != null && posix.permissions().stream().noneMatch(WRITE_BITS::contains)) {
            throw new Refused("the file is read-only"
                    + (posix == null ? "" : " (" + PosixFilePermissions.toString(posix.permissions()) + ")"));
        }
        if (hardLinks(target) > 1) {
            rewriteInPlace(target, p.before(), p.after());
            return;
        }
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".graphmend-tmp");
        try {
            Files.write(tmp, p.after());
            if (posix != null) keepOwnerAndMode(tmp, posix);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** How many names the file has (1 where the file system does not say). */
    static int hardLinks(Path file) throws IOException {
        try {
            return ((Number) Files.getAttribute(file, "unix:nlink")).intValue();
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return 1;
        }
    }

    /** Overwrites the file's bytes from the start, then cuts it to length; on failure writes the old bytes back. */
    private static void rewriteInPlace(Path target, byte[] before, byte[] after) throws IOException {
        try {
            overwrite(target, after);
        } catch (IOException e) {
            try {
                overwrite(target, before);
            } catch (IOException again) {
                e.addSuppressed(again);
                throw new IOException(reason(e) + "; the file may be half written: its original text could not be"
                        + " put back (" + reason(again) + ")", e);
            }
            throw e;
        }
    }

    private static void overwrite(Path target, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) ch.write(b, b.position());
            ch.truncate(bytes.length);
            ch.force(true);
        }
    }

    private static PosixFileAttributes posix(Path p) throws IOException {
        try {
            return Files.readAttributes(p, PosixFileAttributes.class);
        } catch (UnsupportedOperationException e) {
            return null; // not a POSIX file system (Windows): no owner or mode bits to keep
        }
    }

    /** Owner and group first: changing them may clear mode bits. */
    private static void keepOwnerAndMode(Path tmp, PosixFileAttributes original) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        PosixFileAttributes now = view.readAttributes();
        try {
            if (!now.owner().equals(original.owner())) view.setOwner(original.owner());
            if (!now.group().equals(original.group())) view.setGroup(original.group());
        } catch (IOException e) {
            throw new Refused("cannot keep its owner " + original.owner().getName() + ":" + original.group().getName()
                    + " (" + reason(e) + ")");
        }
        view.setPermissions(original.permissions());
    }

    private static Charset charset(String cpythonName) throws Refused {
        for (String name : new String[] {cpythonName, cpythonName.replace('_', '-')}) {
            try {
                return Charset.forName(name);
            } catch (RuntimeException ignored) {
                // try the next spelling
            }
        }
        throw new Refused("its encoding (" + cpythonName + ") is not one Java can write");
    }

    /** The text in the charset, or null when some character has no encoding in it (never '?'). */
    private static byte[] encode(String text, Charset cs) {
        try {
            ByteBuffer b = cs.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(text));
            return Arrays.copyOfRange(b.array(), b.arrayOffset() + b.position(), b.arrayOffset() + b.limit());
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** What the OS said, e.g. "Permission denied" (Java leaves some reasons out of the message). */
    static String reason(IOException e) {
        if (e instanceof Refused) return e.getMessage();
        if (e instanceof FileSystemException) {
            FileSystemException f = (FileSystemException) e;
            if (f.getReason() != null) return f.getReason();
            if (f instanceof AccessDeniedException) return "Permission denied";
            if (f instanceof NoSuchFileException) return "No such file or directory";
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }
}
