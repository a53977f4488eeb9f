package io.gpumeter.ledger.governance.domain;

/** What kind of change the change book holds; the subject each kind names is in brackets. */
public enum ChangeKind {
    NODE_ADDED,
    NODE_REMOVED,
    NODE_CORDONED,
    NODE_UNCORDONED,
    /** [the label key] */
    NODE_LABEL,
    /** [the resource] */
    GPU_ALLOCATABLE,
    MIG_LAYOUT,
    DRIVER_VERSION,
    CUDA_VERSION,
    /** [the component] */
    COMPONENT_VERSION,
    /** [the component]; before/after one of {@link ComponentHealth} */
    COMPONENT_HEALTH,
    /** [the queue, its flavor and the resource] */
    QUOTA
}
