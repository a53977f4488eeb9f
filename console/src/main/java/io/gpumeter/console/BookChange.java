package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.time.Instant;
import java.util.List;

/**
 * One row of the ledger's change book ({@code GET /api/v1/changes}): what changed on a node, or cluster-wide when
 * {@code node} is null, from {@code before} to {@code after}, where it was seen ({@code source}), how many changes of
 * its subject its minute held ({@code count}, a flapping value), and the pool its node was in then ({@code pool}, null
 * for a cluster-wide change).
 */
@TemplateData
@RegisterForReflection
public record BookChange(String id, Instant at, String cluster, String node, String pool, String kind, String subject,
                         String before, String after, String source, int count) {

    /** The kinds the book holds, in the order the page lists them. */
    static final List<String> KINDS = List.of("NODE_ADDED", "NODE_REMOVED", "NODE_CORDONED", "NODE_UNCORDONED", "NODE_LABEL",
            "GPU_ALLOCATABLE", "MIG_LAYOUT", "DRIVER_VERSION", "CUDA_VERSION", "COMPONENT_VERSION", "COMPONENT_HEALTH", "QUOTA");
    /** How the ledger's source names a change the suite made itself (a runbook action's cordon or label). */
    static final String SUITE_PREFIX = "gpumeter ";

    /** A minute holds at least the change itself, whatever an older ledger said. */
    public BookChange {
        count = Math.max(1, count);
    }

    /** Whether it can be drawn: it has an instant and a kind. */
    boolean drawable() {
        return at != null && kind != null;
    }

    /** How many nodes these changes touched (a cluster-wide change touches none by itself). */
    static int nodes(List<BookChange> changes) {
        return (int) changes.stream().filter(c -> c.node() != null).map(c -> c.cluster() + "/" + c.node()).distinct().count();
    }

    /** How many of these changes the suite made itself. */
    static int bySuite(List<BookChange> changes) {
        return (int) changes.stream().filter(BookChange::bySuite).count();
    }

    /** Made by the suite itself, so never read as a cause. */
    public boolean bySuite() {
        return source != null && source.startsWith(SUITE_PREFIX);
    }

    public boolean clusterWide() {
        return node == null;
    }

    public String atText() {
        return Format.rfc3339(at);
    }

    /** e.g. {@code 550.54.15 → 560.35.03}; {@code (none)} for a value that was or became absent; empty for neither. */
    public String beforeAfter() {
        if (before == null && after == null) {
            return "";
        }
        return shown(before) + " → " + shown(after);
    }

    /** The kind and its subject: {@code COMPONENT_HEALTH device-plugin}. */
    public String what() {
        return subject == null ? kind : kind + " " + subject;
    }

    /** Where: the node, or the cluster for a cluster-wide change. */
    public String where() {
        return node != null ? node : (cluster == null ? "" : cluster) + " (cluster-wide)";
    }

    /** One line for a chart's tooltip. */
    public String summary() {
        String values = beforeAfter();
        return atText() + " " + where() + " " + what() + (values.isEmpty() ? "" : ": " + values)
                + (count > 1 ? " (" + count + " in the minute)" : "") + (source == null ? "" : " — " + source);
    }

    private static String shown(String value) {
        return value == null ? "(none)" : value;
    }
}
