package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.governance.domain.VolcanoJobReport.Group;
import io.gpumeter.ledger.governance.domain.VolcanoJobReport.Job;
import io.gpumeter.ledger.governance.domain.VolcanoJobReport;
import io.gpumeter.ledger.governance.domain.VolcanoJobTrail;
import io.gpumeter.ledger.governance.repository.VolcanoJobRepository.Held;
import io.gpumeter.ledger.governance.repository.VolcanoJobRepository.JobSpan;
import io.gpumeter.ledger.governance.repository.VolcanoJobRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The Volcano Jobs that finished in a window, per queue, namespace or tenant: GPU-hours per job, success rate,
 * retries and queueing (see {@link VolcanoJobReport}). A job's tenant is its namespace's at the instant it finished,
 * from the namespace label history every other read uses; asked for one tenant, only that tenant's jobs are read.
 */
@ApplicationScoped
public class VolcanoJobService {

    static final Duration MAX_WINDOW = Duration.ofDays(400);
    static final int DEFAULT_JOBS_PER_GROUP = 20;
    static final int MAX_JOBS_PER_GROUP = 1000;

    /** What the jobs can be grouped by. */
    public enum GroupBy {
        QUEUE("queue", Job::queue), NAMESPACE("namespace", Job::namespace), TENANT("tenant", Job::tenant);

        final String label;
        final Function<Job, String> key;

        GroupBy(String label, Function<Job, String> key) {
            this.label = label;
            this.key = key;
        }

        static GroupBy parse(String text) {
            return Params.oneOf("groupBy", text == null || text.isBlank() ? "queue" : text, values(), g -> g.label);
        }
    }

    private final VolcanoJobRepository repository;
    private final TenantResolver tenants;
    private final Clock clock;

    public VolcanoJobService(VolcanoJobRepository repository, TenantResolver tenants, Clock clock) {
        this.repository = repository;
        this.tenants = tenants;
        this.clock = clock;
    }

    /**
     * @param tenant       only this tenant's jobs; null for every tenant's
     * @param jobsPerGroup how many jobs each group lists, {@value #DEFAULT_JOBS_PER_GROUP} when null
     */
    public Uni<List<Group>> finished(Instant from, Instant to, String groupBy, String cluster, String tenant,
                                     String jobsPerGroup) {
        GroupBy group = GroupBy.parse(groupBy);
        Params.window(from, to, MAX_WINDOW);
        int listed = jobsPerGroup(jobsPerGroup);
        Instant now = clock.instant();
        return repository.finishedIn(from, to, cluster).chain(byJob -> {
            List<Finished> jobs = new ArrayList<>();
            byJob.forEach((key, versions) -> {
                VolcanoJobTrail trail = new VolcanoJobTrail(versions);
                Instant finishedAt = trail.finishedAt();
                if (finishedAt != null && !finishedAt.isBefore(from) && finishedAt.isBefore(to)) {
                    jobs.add(new Finished(key.substring(0, key.lastIndexOf('/')), trail));
                }
            });
            return tenants.tenants(TenantResolver.namespaces(jobs, Finished::cluster, f -> f.trail().latest().namespace()))
                    .chain(t -> {
                        List<Finished> kept = jobs.stream().filter(f -> tenant == null
                                || tenant.equals(tenantOf(t, f))).toList();
                        return repository.held(kept.stream().map(Finished::span).toList(), now)
                                .map(held -> VolcanoJobReport.of(group.label, rows(kept, held, t), group.key, listed));
                    });
        });
    }

    /** One finished job as the stored versions give it, of its cluster. */
    private record Finished(String cluster, VolcanoJobTrail trail) {

        JobSpan span() {
            return new JobSpan(cluster, trail.latest().namespace(), trail.latest().name(), trail.createdAt(),
                    trail.finishedAt());
        }
    }

    private static String tenantOf(TenantResolver.Tenants t, Finished f) {
        return t.at(f.cluster(), f.trail().latest().namespace(), f.trail().finishedAt());
    }

    private static List<Job> rows(List<Finished> jobs, Map<Integer, Held> held, TenantResolver.Tenants t) {
        List<Job> rows = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            Finished f = jobs.get(i);
            VolcanoJobTrail trail = f.trail();
            Held h = held.get(i);
            // Volcano's Running when a version shows it, else the first of its pods to hold a card
            Instant running = trail.firstRunningAt() != null ? trail.firstRunningAt() : h == null ? null : h.firstHeld();
            BigDecimal wait = running == null ? null
                    : BigDecimal.valueOf(Math.max(0, Duration.between(trail.createdAt(), running).toMillis()), 3)
                    .stripTrailingZeros();
            BigDecimal hours = h == null ? BigDecimal.ZERO : VolcanoJobReport.hours(h.seconds());
            rows.add(new Job(f.cluster(), trail.latest().namespace(), trail.latest().name(), trail.latest().uid(),
                    trail.queue(), tenantOf(t, f), trail.state(), trail.latest().phaseReason(), trail.createdAt(), running,
                    trail.finishedAt(), wait, trail.retries(), h == null ? 0 : h.pods(), hours));
        }
        return rows;
    }

    static int jobsPerGroup(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_JOBS_PER_GROUP;
        }
        int n;
        try {
            n = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw ApiProblem.badRequest("jobsPerGroup", "jobsPerGroup must be a whole number, got '" + text + "'");
        }
        if (n < 0 || n > MAX_JOBS_PER_GROUP) {
            throw ApiProblem.badRequest("jobsPerGroup", "jobsPerGroup must be between 0 and " + MAX_JOBS_PER_GROUP);
        }
        return n;
    }
}
