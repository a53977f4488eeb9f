package io.gpumeter.slo.capacity;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.Demand;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Supply;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.repository.RequestRateRepository;
import io.gpumeter.slo.repository.RunRepository;
import io.gpumeter.slo.repository.SloRepository;
import io.gpumeter.slo.repository.StoredRun;
import io.gpumeter.slo.repository.StoredSlo;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The capacity plan (docs/adr/0023): reads the ledger's supply and demand over the history, the latest passing
 * acceptance runs and the services' request rates and SLOs of slo-service's own books, and plans each model by the
 * commitment model. Days are UTC days, as the ledger's other daily reads default to.
 */
// Built at start-up, so that a bad capacity setting stops the service with the property's name.
@Startup
@ApplicationScoped
public class CapacityPlanService {

    /** Fewer days leave a trend without ground. */
    public static final int MIN_HISTORY_DAYS = 7;
    /** Half a year of days is plenty for a trend. */
    public static final int MAX_HISTORY_DAYS = 182;

    private static final ZoneId UTC = ZoneId.of("UTC");

    private final LedgerClient ledger;
    private final RunRepository runs;
    private final RequestRateRepository rates;
    private final SloRepository slos;
    private final ObjectMapper json;
    private final SloConfig.Capacity config;
    private final DegradePolicies degrade;

    public CapacityPlanService(LedgerClient ledger, RunRepository runs, RequestRateRepository rates, SloRepository slos,
                               ObjectMapper json, SloConfig config) {
        this.ledger = ledger;
        this.runs = runs;
        this.rates = rates;
        this.slos = slos;
        this.json = json;
        this.config = config.capacity();
        this.degrade = new DegradePolicies(this.config.degrade(), this.config.degradeShape());
        Horizon.days("gpumeter.slo.capacity.history", this.config.history(), MIN_HISTORY_DAYS, MAX_HISTORY_DAYS);
        terms(1);
    }

    /** The configured history length (e.g. 56d), as the default of a request. */
    public String defaultHistory() {
        return config.history();
    }

    private ShapePlanner.Terms terms(int horizonDays) {
        double u = config.targetUtilization();
        if (!(u > 0 && u <= 1)) {
            throw new IllegalArgumentException("gpumeter.slo.capacity.target-utilization must be in (0, 1], got " + u);
        }
        if (!(config.intervalZ() > 0)) {
            throw new IllegalArgumentException("gpumeter.slo.capacity.interval-z must be positive, got " + config.intervalZ());
        }
        SloConfig.Floors f = config.floors();
        for (double floor : new double[]{f.jitter(), f.failures(), f.peaks()}) {
            if (!(floor >= 0 && floor < CommitmentModel.MAX_MARGIN)) {
                throw new IllegalArgumentException("gpumeter.slo.capacity.floors.* must be in [0, "
                        + CommitmentModel.MAX_MARGIN + "), got " + floor);
            }
        }
        return new ShapePlanner.Terms(horizonDays, u, config.intervalZ(), f.jitter(), f.failures(), f.peaks());
    }

    /** The plan as of {@code at}: history is the {@code historyDays} whole UTC days before the day of {@code at}. */
    public Uni<CapacityPlan> plan(Instant at, int horizonDays, int historyDays) {
        ShapePlanner.Terms terms = terms(horizonDays);
        LocalDate today = at.atZone(ZoneOffset.UTC).toLocalDate();
        LocalDate first = today.minusDays(historyDays);
        TimeWindow window = new TimeWindow(first.atStartOfDay(ZoneOffset.UTC).toInstant(),
                today.atStartOfDay(ZoneOffset.UTC).toInstant());
        // The ledger's two reads, the acceptance runs with the SLOs and the request minutes depend on none of each
        // other: all are asked for at once, so the plan waits for the slowest of them rather than for their sum.
        Uni<Supply> supply = ledger.supply(window, UTC, null);
        Uni<Demand> demand = ledger.demand(window, UTC, null);
        // one Hibernate session serves both of slo-service's own books, so they are read one after the other
        Uni<OwnBooks> books = runs.latest(config.acceptanceRuns())
                .chain(passing -> slos.listByName().map(defined -> new OwnBooks(passing, defined)));
        // which pods serve a service is known up to the plan's instant, today's included
        Uni<RequestRateRepository.ServiceTraffic> traffic = rates.traffic(window, at, ZoneOffset.UTC);
        return Uni.combine().all().unis(supply, demand, books, traffic).asTuple()
                .map(t -> assemble(at, first, today, historyDays, terms, orEmpty(t.getItem1(), window),
                        orEmpty(t.getItem2(), window), new ServiceBook(t.getItem4().pods(), t.getItem4().busiest(),
                                t.getItem3().defined(), new Deliverables(t.getItem3().passing(), json))));
    }

    /** slo-service's own books the plan reads: the latest acceptance runs and the SLOs defined. */
    private record OwnBooks(List<StoredRun> passing, List<StoredSlo> defined) {
    }

    /** A ledger without the read plans nothing rather than failing the plan. */
    private static Supply orEmpty(Supply supply, TimeWindow window) {
        return supply != null ? supply : new Supply(window.start(), window.end(), "UTC", null, List.of());
    }

    private static Demand orEmpty(Demand demand, TimeWindow window) {
        return demand != null ? demand : new Demand(window.start(), window.end(), "UTC", null, List.of(), List.of());
    }

    private CapacityPlan assemble(Instant at, LocalDate first, LocalDate today, int historyDays,
                                  ShapePlanner.Terms terms, Supply supply, Demand demand, ServiceBook book) {
        Map<String, Supply.Model> supplied = new TreeMap<>();
        supply.models().forEach(m -> supplied.put(m.model(), m));
        Map<String, List<Demand.Shape>> demanded = new TreeMap<>();
        demand.shapes().forEach(s -> demanded.computeIfAbsent(s.model() == null ? "unknown" : s.model(),
                k -> new ArrayList<>()).add(s));
        Map<String, Demand.Peak> peaks = new TreeMap<>();
        Demand.Peak fleetPeak = null;
        for (Demand.Peak p : demand.peaks()) {
            if (p.model() == null) {
                fleetPeak = p;
            } else {
                peaks.put(p.model(), p);
            }
        }
        TreeMap<String, Boolean> models = new TreeMap<>();
        supplied.keySet().forEach(m -> models.put(m, true));
        demanded.keySet().forEach(m -> models.put(m, true));
        List<CapacityPlan.ModelCommitment> out = new ArrayList<>();
        for (String model : models.keySet()) {
            Supply.Model s = supplied.get(model);
            List<LocalDate> days = FittedDays.of(first, today, s == null ? null : s.inventorySince());
            List<ShapePlanner.Input> inputs = demanded.getOrDefault(model, List.of()).stream()
                    .map(shape -> book.input(shape, days)).toList();
            out.add(ModelPlanner.plan(model, s, inputs, peaks.getOrDefault(model, fleetPeak), terms, degrade::of));
        }
        SloConfig.Floors f = config.floors();
        return new CapacityPlan(at.toString(), first.toString(), today.toString(), historyDays, terms.horizonDays(),
                "UTC", CapacityPlan.METHOD, new CapacityPlan.Terms(Shares.of(terms.targetUtilization()),
                Shares.of(terms.z()), Shares.of(f.jitter()), Shares.of(f.failures()), Shares.of(f.peaks())), out);
    }
}
