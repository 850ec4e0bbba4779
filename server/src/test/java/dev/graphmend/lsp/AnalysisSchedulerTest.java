package dev.graphmend.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The trace's durations: two decimals, as {@code String.format("%.2f")} wrote them (clients and the benchmark read them). */
class AnalysisSchedulerTest {
    @Test
    void durationsHaveTwoDecimalsLikeFormat() {
        long[] nanos = {0, 4_999, 5_000, 1_050_000, 1_004_999, 12_345_678, 999_999_999, 1_000_000_000, -2_500_000, -4_000};
        for (long n : nanos) {
            String expected = String.format(java.util.Locale.ROOT, "%.2f", n / 1e6);
            if (expected.equals("-0.00")) expected = "0.00";
            assertEquals(expected, AnalysisScheduler.millis(0, n), n + " ns");
        }
    }
}
