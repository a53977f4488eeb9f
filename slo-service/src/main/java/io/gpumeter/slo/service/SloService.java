package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.AlertState;
import io.gpumeter.slo.domain.BurnAlert;
import io.gpumeter.slo.domain.BurnRates;
import io.gpumeter.slo.domain.Objective;
import io.gpumeter.slo.domain.PrometheusRules;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.SloMinutes;
import io.gpumeter.slo.domain.SloSelector;
import io.gpumeter.slo.domain.SloStatus;
import io.gpumeter.slo.domain.TenantCoverage;
import io.gpumeter.slo.repository.SloRepository;
import io.gpumeter.slo.repository.StoredSlo;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.JDBCException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Service level objectives: validated definitions, and each one's attainment, budget and burn-rate alerts. */
@ApplicationScoped
public class SloService {

    /** A stored definition with its timestamps. */
    public record Stored(SloDefinition definition, Instant createdAt, Instant updatedAt) {
    }

    /**
     * An SLO's status as of the end of the last whole minute before {@code at}; for a tenant selector, how the
     * candidate pod-minutes of the minutes read were attributed (else null). A legacy service selector (no namespace)
     * comes pinned to the namespace that reported its service in the minutes read. {@code recentPods} are the pods
     * ("namespace/pod") the SLO counted in the look-back before {@code end} ({@code gpumeter.slo.changes.look-back}),
     * whose nodes are where a burning SLO's changes are looked for (empty for the earlier instants of a burn-down).
     */
    public record Evaluated(SloDefinition definition, Instant end, SloStatus status, TenantCoverage selection,
                            Set<String> recentPods) {

        /** Whether one of its burn-rate alerts fires. */
        public boolean firing() {
            return status.alerts().stream().anyMatch(AlertState::firing);
        }
    }

    private final SloRepository repository;
    private final SloEvents events;
    private final ServiceNamespaces namespaces;
    private final SloConfig config;

    private final Clock clock;

    public SloService(SloRepository repository, SloEvents events, ServiceNamespaces namespaces, SloConfig config,
                      Clock clock) {
        this.clock = clock;
        this.repository = repository;
        this.events = events;
        this.namespaces = namespaces;
        this.config = config;
    }

    /**
     * Validates a request body, naming the first field at fault.
     *
     * @param pathName the name in the URL for a replacement, or null for a creation
     * @throws ApiProblem 400 naming the field, or InvalidInput (also a 400) for the definition itself
     */
    public SloDefinition validate(SloRequest request, String pathName) {
        if (request == null) {
            throw ApiProblem.badRequest("body", "the body must be an SLO as JSON");
        }
        String name = request.name() == null && pathName != null ? pathName : request.name();
        if (pathName != null && !pathName.equals(name)) {
            throw ApiProblem.badRequest("name", "name must match the URL's '" + pathName + "' (renaming is a new SLO)");
        }
        SloRequest.Selector selector = request.selector();
        if (selector != null && selector.labels() != null) {
            // pods' labels never reach the ledger's occupant rows, so a label selector could not be evaluated
            throw ApiProblem.badRequest("selector.labels", "selector.labels is not supported: pods' labels are not"
                    + " recorded with their GPU holdings; select with service, tenant and namespace");
        }
        SloRequest.ObjectiveBody o = request.objective();
        return SloDefinition.of(name, selector == null ? new SloSelector.Parts(null, null, null)
                        : new SloSelector.Parts(selector.service(), selector.tenant(), selector.namespace()),
                request.sli(),
                o == null ? null : o.percentile(), o == null ? null : o.thresholdMs(), o == null ? null : o.per(),
                o != null, request.target(), request.window(), config.maxWindow());
    }

    /**
     * A service selector that names no namespace, pinned to the only namespace whose pods ever reported the service;
     * any other definition as it is.
     *
     * @throws ApiProblem 400 naming {@code selector.namespace} when several namespaces report the service, or none yet
     */
    public Uni<SloDefinition> pin(SloDefinition d) {
        if (!d.selector().unpinned()) {
            return Uni.createFrom().item(d);
        }
        return namespaces.ofStoredService(d.service()).map(ns -> d.with(d.selector().in(ns)));
    }

    /** Stores a new SLO. @throws ApiProblem 409 when the name is taken */
    @WithTransaction
    public Uni<Stored> create(SloDefinition definition) {
        return repository.findById(definition.name()).chain(found -> {
            if (found != null) {
                throw taken(definition.name());
            }
            StoredSlo row = new StoredSlo();
            row.createdAt = clock.instant();
            return save(row, definition).call(repository::flush);
        }).onFailure(SloService::uniqueViolation).transform(e -> taken(definition.name()));
    }

    private static ApiProblem taken(String name) {
        return new ApiProblem(409, "Conflict", "name", "an SLO named '" + name + "' exists; replace it with PUT"
                + " /api/v1/slos/" + name);
    }

    /** A concurrent creation of the same name passes the lookup and fails on the primary key instead. */
    private static boolean uniqueViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PgException pg && "23505".equals(pg.getSqlState())
                    || t instanceof JDBCException j && "23505".equals(j.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** Replaces an SLO's definition, or null when there is none of that name. */
    @WithTransaction
    public Uni<Stored> replace(SloDefinition definition) {
        return repository.findById(definition.name())
                .chain(found -> found == null ? Uni.createFrom().nullItem() : save(found, definition));
    }

    public Uni<List<Stored>> list() {
        return repository.listByName().map(all -> all.stream().map(this::definition).toList());
    }

    /** The SLOs whose selector names exactly this tenant. */
    public Uni<List<Stored>> listOfTenant(String tenant) {
        return repository.listByTenant(tenant).map(all -> all.stream().map(this::definition).toList());
    }

    /** The SLO, or null. */
    public Uni<Stored> get(String name) {
        return repository.byName(name).map(row -> row == null ? null : definition(row));
    }

    @WithTransaction
    public Uni<Boolean> delete(String name) {
        return repository.deleteById(name);
    }

    /**
     * Attainment, budget and the workbook's burn-rate alerts as of the last whole minute before {@code at}.
     *
     * @throws ApiProblem 404 when there is no SLO of that name
     */
    public Uni<Evaluated> status(String name, Instant at) {
        return get(name).chain(stored -> {
            if (stored == null) {
                throw ApiProblem.notFound("name", "there is no SLO named '" + name + "'");
            }
            return evaluate(stored.definition(), at);
        });
    }

    /** Like {@link #status}, for an SLO already read. */
    public Uni<Evaluated> evaluate(SloDefinition d, Instant at) {
        return evaluateAt(d, List.of(at)).map(all -> all.get(0));
    }

    /**
     * Like {@link #evaluate} at each of {@code ats}, in their order, from one read of the events of the span they
     * need together: a burn-down's instants share most of their windows.
     */
    public Uni<List<Evaluated>> evaluateAt(SloDefinition d, List<Instant> ats) {
        List<Instant> ends = ats.stream().map(t -> t.truncatedTo(ChronoUnit.MINUTES)).toList();
        Instant first = ends.stream().min(Instant::compareTo).orElseThrow();
        Instant last = ends.stream().max(Instant::compareTo).orElseThrow();
        Duration span = BurnAlert.WORKBOOK.stream().map(BurnAlert::longWindow)
                .reduce(d.window(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
        return events.podMinutes(d, new TimeWindow(first.minus(span), last)).map(selected -> {
            // each evaluation counts only the minutes inside its own windows
            var minutes = SloMinutes.perMinute(d, selected.pods());
            Instant recent = last.minus(config.changes().lookBack());
            Set<String> recentPods = new TreeSet<>();
            selected.pods().stream().filter(p -> !p.minute().isBefore(recent) && p.minute().isBefore(last))
                    .forEach(p -> recentPods.add(p.podKey()));
            return ends.stream().map(end -> new Evaluated(selected.slo(), end, BurnRates.evaluate(d.target(),
                    d.window(), BurnAlert.WORKBOOK, minutes, end), selected.coverage(),
                    end.equals(last) ? Set.copyOf(recentPods) : Set.of())).toList();
        });
    }

    /** Every SLO as a Prometheus rule file. */
    public Uni<String> prometheusRules() {
        SloConfig.Rules r = config.rules();
        PrometheusRules.Metrics metrics = new PrometheusRules.Metrics(r.serviceLabel(), r.namespaceLabel(),
                r.ttftHistogram(), r.itlHistogram(), r.e2eHistogram(), r.requestsMetric(), r.errorsMetric());
        return list().map(all -> PrometheusRules.render(all.stream().map(Stored::definition).toList(),
                BurnAlert.WORKBOOK, metrics));
    }

    private Uni<Stored> save(StoredSlo row, SloDefinition d) {
        row.name = d.name();
        row.service = d.service();
        row.tenant = d.tenant();
        row.namespace = d.selector().namespace();
        row.sli = d.sli().name();
        Objective o = d.objective();
        row.objectivePercentile = o == null ? null : o.percentile();
        row.objectiveThresholdMs = o == null ? null : o.thresholdMs();
        row.objectivePer = o == null ? null : o.per().name();
        row.target = d.target();
        row.window = d.windowText();
        row.updatedAt = clock.instant();
        return repository.persist(row).map(this::definition);
    }

    /** Stored rows were valid when written; a later, shorter max-window must not make them unreadable. */
    private Stored definition(StoredSlo row) {
        SloDefinition d = SloDefinition.of(row.name, new SloSelector.Parts(row.service, row.tenant, row.namespace),
                row.sli, row.objectivePercentile,
                row.objectiveThresholdMs, row.objectivePer, row.objectivePer != null, row.target, row.window,
                Duration.ofDays(36_500));
        return new Stored(d, row.createdAt, row.updatedAt);
    }
}
