package dev.graphmend.ir.parse;

import java.util.Arrays;

/**
 * One damaged input: the original bytes [start, end) replaced by {@code replacement}.
 * {@code kind} and {@code seed} reproduce it ({@link MutationGenerator#generate}).
 */
record Mutation(MutationKind kind, long seed, int start, int end, byte[] replacement, String description) {

    byte[] apply(byte[] original) {
        byte[] out = new byte[original.length - (end - start) + replacement.length];
        System.arraycopy(original, 0, out, 0, start);
        System.arraycopy(replacement, 0, out, start, replacement.length);
        System.arraycopy(original, end, out, start + replacement.length, original.length - end);
        return out;
    }

    /** Whether the original range or the replacement holds one of the given bytes. */
    boolean touchesAny(byte[] original, String chars) {
        for (int i = start; i < end; i++) if (chars.indexOf(original[i]) >= 0) return true;
        for (byte b : replacement) if (chars.indexOf(b) >= 0) return true;
        return false;
    }

    String reproducer(String file) {
        return String.format("file=%s kind=%s seed=0x%016x (%s); rerun alone with -Dgm.mutation.repro=%s@%s@0x%016x",
                file, kind, seed, description, file, kind, seed);
    }

    @Override
    public String toString() {
        return kind + " seed=0x" + Long.toHexString(seed) + " [" + start + "," + end + ") -> "
                + Arrays.toString(replacement) + " " + description;
    }
}
