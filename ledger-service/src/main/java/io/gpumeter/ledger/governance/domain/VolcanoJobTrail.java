package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.VolcanoJobFact;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the stored versions of one Volcano Job (batch.volcano.sh/v1alpha1) say of it: the phase it stands in, whether
 * that phase is final and since when, when it first ran, and how often its controller restarted it. Volcano's
 * phases are Pending, Aborting, Aborted, Running, Restarting, Completing, Completed, Terminating, Terminated and
 * Failed; a job has finished once it stands in Completed, Failed, Aborted or Terminated. Aborted can be resumed, so
 * a job is judged by its newest version, never by a final phase it passed through.
 */
public final class VolcanoJobTrail {

    /** The phase a job that succeeded ends in. */
    public static final String COMPLETED = "Completed";
    /** The phases a job ends in: it succeeded (Completed) or not. */
    public static final Set<String> FINISHED = Set.of(COMPLETED, "Failed", "Aborted", "Terminated");

    private final List<VolcanoJobFact> versions;
    private final VolcanoJobFact latest;

    public VolcanoJobTrail(List<VolcanoJobFact> versions) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("a Volcano Job trail needs at least one version");
        }
        this.versions = Versions.ordered(versions, VolcanoJobFact::resourceVersion, VolcanoJobFact::observedAt);
        this.latest = this.versions.get(this.versions.size() - 1);
    }

    public VolcanoJobFact latest() {
        return latest;
    }

    /** The phase of the newest version; Pending when Volcano has written none yet. */
    public String state() {
        return latest.phase() == null ? "Pending" : latest.phase();
    }

    public boolean finished() {
        return FINISHED.contains(state());
    }

    public boolean succeeded() {
        return COMPLETED.equals(state());
    }

    /** The queue the newest version names. */
    public String queue() {
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (versions.get(i).queue() != null) {
                return versions.get(i).queue();
            }
        }
        return null;
    }

    public Instant createdAt() {
        return versions.stream().map(VolcanoJobFact::createdAt).filter(Objects::nonNull).findFirst()
                .orElse(versions.get(0).observedAt());
    }

    /**
     * When the job entered the final phase it stands in: that phase's status.state.lastTransitionTime, else the
     * observation of the first version of the closing run of versions in that phase; null while it has not finished.
     */
    public Instant finishedAt() {
        if (!finished()) {
            return null;
        }
        if (latest.phaseChangedAt() != null) {
            return latest.phaseChangedAt();
        }
        Instant first = latest.observedAt();
        for (int i = versions.size() - 1; i >= 0 && state().equals(versions.get(i).phase()); i--) {
            first = versions.get(i).observedAt();
        }
        return first;
    }

    /**
     * When the job first ran: the lastTransitionTime of the first version in phase Running, else its observation;
     * null when no version shows it Running (it finished between two observations, or never ran).
     */
    public Instant firstRunningAt() {
        for (VolcanoJobFact v : versions) {
            if ("Running".equals(v.phase())) {
                return v.phaseChangedAt() != null ? v.phaseChangedAt() : v.observedAt();
            }
        }
        return null;
    }

    /** status.retryCount: how often the controller restarted the job; the highest any version says, 0 for none. */
    public int retries() {
        return versions.stream().map(VolcanoJobFact::retryCount).filter(Objects::nonNull).mapToInt(Integer::intValue)
                .max().orElse(0);
    }
}
