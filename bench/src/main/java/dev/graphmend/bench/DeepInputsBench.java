package dev.graphmend.bench;

import dev.graphmend.ir.concurrent.DeepStack;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Our side of {@code bench/deep-inputs.sh}: for each file named, the parser's verdict and its time,
 * the first parse (cold) and the median of {@code passes} more, on a {@link DeepStack} thread as the
 * CLI and the server parse. Prints one tab-separated line per file: path, errors, first error,
 * cold ms, median ms.
 */
public final class DeepInputsBench {
    private DeepInputsBench() {}

    public static void main(String[] args) throws Exception {
        int passes = Integer.parseInt(args[0]);
        DeepStack.call("deep-inputs-bench", () -> {
            PythonSourceParser parser = new PythonSourceParser();
            for (int i = 1; i < args.length; i++) {
                try {
                    byte[] bytes = Files.readAllBytes(Path.of(args[i]));
                    long t0 = System.nanoTime();
                    ParseResult first = parser.parse(bytes);
                    double cold = (System.nanoTime() - t0) / 1e6;
                    double[] ms = new double[passes];
                    for (int p = 0; p < passes; p++) {
                        long t = System.nanoTime();
                        parser.parse(bytes);
                        ms[p] = (System.nanoTime() - t) / 1e6;
                    }
                    Arrays.sort(ms);
                    String error = first.errors().isEmpty() ? "-" : first.errors().get(0).message();
                    System.out.printf(Locale.ROOT, "%s\t%d\t%s\t%.2f\t%.2f%n", args[i], first.errors().size(),
                            error.replace('\t', ' '), cold, ms[passes / 2]);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return null;
        });
    }
}
