package dev.berth.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Machine-wide CPU use between two readings of /proc/stat (all processes, all cores), and the load average. */
final class CpuSampler {
    private final long busyStart;
    private final long totalStart;

    CpuSampler() {
        long[] now = read();
        busyStart = now[0];
        totalStart = now[1];
    }

    /** Busy fraction of all cores since construction, or -1 where /proc/stat is missing. */
    double busyFraction() {
        long[] now = read();
        long total = now[1] - totalStart;
        return total <= 0 ? -1 : (double) (now[0] - busyStart) / total;
    }

    /** CPU seconds all cores were busy since construction (/proc/stat counts in USER_HZ, 100 per second), or -1. */
    double busySeconds() {
        long[] now = read();
        return now[1] == 0 ? -1 : (now[0] - busyStart) / 100.0;
    }

    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException e) {
            return "n/a";
        }
    }

    private static long[] read() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < fields.length && i <= 8; i++) total += Long.parseLong(fields[i]);
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }
}
