package io.gpumeter.ledger.allocation.domain;

/** What share of a GPU a unit of allocation is. */
public enum UnitKind {
    /** A whole card from the device plugin. */
    WHOLE,
    /** A MIG instance. */
    MIG,
    /** A HAMi vGPU share (cores and memory). */
    VGPU,
    /** One replica of a time-sliced or MPS-shared card. */
    SHARED
}
