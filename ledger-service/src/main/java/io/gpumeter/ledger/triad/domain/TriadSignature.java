package io.gpumeter.ledger.triad.domain;

/** The four readings of the utilization triad (first column, SM_ACTIVE, DRAM_ACTIVE), and what is left over. */
public enum TriadSignature {
    /** high / low / high. */
    BANDWIDTH_BOUND("decode-style inference, healthy but bandwidth-bound: do not add tenants"),
    /** high / high / low or mid. */
    COMPUTE_BOUND("training or prefill, compute-bound, healthy"),
    /** high / low / low. */
    BUSY_NOT_WORKING("tiny-kernel storm or pure copying: busy but not working"),
    /** low / low / low. */
    IDLE("truly idle, or the host side is stalled"),
    /** Measured, but in no row of the table (e.g. high / high / high, or a mid DRAM with low SM). */
    UNMATCHED("no signature matches these levels; read the three figures"),
    /** A field the reading needs was not measured. */
    INSUFFICIENT_DATA("a field of the triad was not measured; see missing");

    private final String meaning;

    TriadSignature(String meaning) {
        this.meaning = meaning;
    }

    public String meaning() {
        return meaning;
    }
}
