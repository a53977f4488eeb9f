package io.gpumeter.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the whole machine was doing over a phase (Linux' /proc): the load average and the share of its CPU time spent
 * busy, whoever spent it. A latency measured on cores shared with other work says little without it.
 */
record MachineLoad(double loadAverage, long busyTicks, long allTicks) {

    static MachineLoad now() {
        try {
            double load = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
            // cpu  user nice system idle iowait irq softirq steal ...
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long all = 0;
            long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
            for (int i = 1; i <= 8 && i < cpu.length; i++) {
                all += Long.parseLong(cpu[i]);
            }
            return new MachineLoad(load, all - idle, all);
        } catch (IOException | RuntimeException e) {
            return new MachineLoad(Double.NaN, 0, 0);
        }
    }

    String since(MachineLoad before) {
        long all = allTicks - before.allTicks;
        return String.format("machine: load average %.1f -> %.1f, CPUs %.0f %% busy (%d cores)", before.loadAverage,
                loadAverage, all == 0 ? Double.NaN : 100.0 * (busyTicks - before.busyTicks) / all,
                Runtime.getRuntime().availableProcessors());
    }
}
