package io.gpumeter.collector.host;

/**
 * A quantity of a host minute: the counters whose increases a minute adds up, and the gauges it keeps the last of.
 * A GPU pod's cgroups have the first nine, a GPU node the rest.
 */
public enum HostSlot {
    CPU_SECONDS(true),
    CFS_PERIODS(true),
    CFS_THROTTLED_PERIODS(true),
    FS_READ_BYTES(true),
    FS_WRITE_BYTES(true),
    NET_RECEIVE_BYTES(true),
    NET_TRANSMIT_BYTES(true),
    /** container_spec_cpu_quota, microseconds per period. */
    CPU_QUOTA(false),
    /** container_spec_cpu_period, microseconds. */
    CPU_PERIOD(false),
    NODE_CPU_IDLE(true),
    NODE_CPU_IOWAIT(true),
    NODE_CPU_USER(true),
    NODE_CPU_SYSTEM(true),
    /** nice, irq, softirq and steal. */
    NODE_CPU_OTHER(true),
    NODE_CPU_PRESSURE_WAITING(true),
    NODE_IO_PRESSURE_STALLED(true),
    NODE_MEMORY_PRESSURE_STALLED(true),
    NODE_NET_RECEIVE_BYTES(true),
    NODE_NET_TRANSMIT_BYTES(true),
    NODE_NET_RECEIVE_DROPS(true),
    NODE_NET_TRANSMIT_DROPS(true),
    /** How many CPUs node_cpu_seconds_total reported in a scrape. */
    NODE_CPUS(false);

    static final int COUNT = values().length;

    private final boolean counter;

    HostSlot(boolean counter) {
        this.counter = counter;
    }

    /** Whether it is a counter (its increases count) rather than a gauge (its last value counts). */
    public boolean counter() {
        return counter;
    }
}
