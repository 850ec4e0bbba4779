package dev.graphmend.ir.ast;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * The values a {@link Expr.Constant} holds: {@link BigInteger} (int), {@link Double} (float),
 * {@link Complex}, {@link String} (str), {@link Bytes}, {@link Boolean}, and the singletons
 * {@link Singleton#NONE} and {@link Singleton#ELLIPSIS}.
 */
public final class PyConstant {
    private PyConstant() {}

    public enum Singleton { NONE, ELLIPSIS }

    /** An imaginary literal such as {@code 2j} (the real part of a literal is always 0). */
    public record Complex(double real, double imag) {}

    /** A bytes literal's value. */
    public record Bytes(byte[] value) {
        @Override public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(value, b.value);
        }
        @Override public int hashCode() { return Arrays.hashCode(value); }
        @Override public String toString() { return "Bytes" + Arrays.toString(value); }
    }

    /** Python's type name for a constant value, as {@code type(value).__name__} gives it. */
    public static String pyTypeName(Object value) {
        if (value instanceof Boolean) return "bool";
        if (value instanceof BigInteger || value instanceof Long || value instanceof Integer) return "int";
        if (value instanceof Double) return "float";
        if (value instanceof Complex) return "complex";
        if (value instanceof String) return "str";
        if (value instanceof Bytes) return "bytes";
        if (value == Singleton.ELLIPSIS) return "ellipsis";
        if (value == null || value == Singleton.NONE) return "NoneType";
        throw new IllegalArgumentException("not a Python constant: " + value.getClass());
    }
}
