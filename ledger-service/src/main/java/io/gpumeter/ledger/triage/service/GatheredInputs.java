package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WorkloadFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What one subject's triage inputs are gathered into, read by read: its own facts ({@link SubjectInputs}), then its
 * nodes' and the fleet's ({@link FleetInputs}). Only what was stored up to {@code at} is kept.
 */
final class GatheredInputs {

    final String cluster;
    final Instant at;
    final List<WorkloadFact> workloads = new ArrayList<>();
    final List<PodGroupFact> podGroups = new ArrayList<>();
    final List<EventFact> events = new ArrayList<>();
    final List<PodStatusFact> pods = new ArrayList<>();
    final List<LogSignalFact> signals = new ArrayList<>();
    final Set<String> nodes = new TreeSet<>();
    /** Whether the subject may wait, so that the fleet it waits against is read too. */
    boolean mayWait;
    String namespace;

    GatheredInputs(String cluster, Instant at) {
        this.cluster = cluster;
        this.at = at;
    }

    /** The facts observed by the instant (a fact without an instant kept). */
    static <T> List<T> upTo(List<T> facts, Function<T, Instant> at, Instant until) {
        return facts.stream().filter(f -> at.apply(f) == null || !at.apply(f).isAfter(until)).toList();
    }
}
