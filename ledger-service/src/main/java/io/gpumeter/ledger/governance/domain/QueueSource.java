package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.Triage.SubjectKind;

/** What waited: a Kueue Workload for admission, a Volcano PodGroup for its gang, a plain GPU pod for a node. */
public enum QueueSource {
    KUEUE, VOLCANO, POD;

    /** What a triage names it. */
    public SubjectKind subjectKind() {
        return switch (this) {
            case KUEUE -> SubjectKind.WORKLOAD;
            case VOLCANO -> SubjectKind.POD_GROUP;
            case POD -> SubjectKind.POD;
        };
    }
}
