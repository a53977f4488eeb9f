package io.gpumeter.ledger.governance.domain;

/** How a GPU-stack component serves one node, as its pods there show it. */
public enum ComponentHealth {
    Ready, NotReady, CrashLoopBackOff, Absent
}
