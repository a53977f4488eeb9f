package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Page;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.service.InterferenceService;
import io.gpumeter.slo.repository.RunRepository;
import io.gpumeter.slo.repository.StoredRun;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a plan once, when it is submitted, and stores the run as computed: reading it again answers the same,
 * however the data behind it changes later.
 */
@ApplicationScoped
public class AcceptanceService {

    private final CellReader cells;
    private final InterferenceService interference;
    private final LedgerReads ledger;
    private final BillingReads others;
    private final RunRepository runs;
    private final ObjectMapper json;
    private final SloConfig config;
    private final Clock clock;

    public AcceptanceService(CellReader cells, InterferenceService interference, LedgerReads ledger,
                             BillingReads others, RunRepository runs, ObjectMapper json, SloConfig config,
                             Clock clock) {
        this.others = others;
        this.cells = cells;
        this.interference = interference;
        this.ledger = ledger;
        this.runs = runs;
        this.json = json;
        this.config = config;
        this.clock = clock;
    }

    /** @throws InvalidInput naming the plan's field at fault */
    public Plan validate(JsonNode body) {
        return PlanReader.read(body, config.latency().maxQueryWindow());
    }

    public Uni<StoredRun> evaluateAndStore(Plan plan, JsonNode body) {
        return evaluate(plan).chain(run -> {
            StoredRun row = new StoredRun();
            row.name = plan.name();
            row.from = plan.from();
            row.to = plan.to();
            row.verdict = run.verdict();
            row.createdAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            row.plan = write(body);
            row.run = write(run);
            return runs.save(row);
        });
    }

    /**
     * @throws io.gpumeter.common.problem.ApiProblem 400 naming {@code cells[i].selector.namespace} for a cell naming
     *                                               only a service that several namespaces report
     */
    public Uni<Run> evaluate(Plan plan) {
        // a service is known by its namespace and name: cells naming only the name are pinned to its one namespace
        return cells.pin(plan).chain(this::evaluatePinned);
    }

    private Uni<Run> evaluatePinned(Plan plan) {
        TimeWindow window = new TimeWindow(plan.from(), plan.to());
        Map<String, CellData> read = new LinkedHashMap<>();
        Uni<Void> all = Uni.createFrom().voidItem();
        for (Plan.Cell cell : plan.cells()) {
            all = all.chain(() -> cells.read(cell, window).invoke(d -> read.put(cell.name(), d))).replaceWithVoid();
        }
        FleetFigures fleet = new FleetFigures();
        return all.chain(() -> fleet(plan, read, fleet)).map(ignored -> {
            List<Run.Outcome> outcomes = new ArrayList<>();
            for (Plan.Clause clause : plan.assertions()) {
                outcomes.add(Judge.judge(plan, clause, read, fleet));
            }
            List<Run.Commitment> commitments = Commitments.of(plan, read, fleet, outcomes, config.capacity());
            List<Run.MatrixRow> matrix = Matrix.of(plan, read, fleet, commitments);
            List<Run.CellView> views = plan.cells().stream().map(c -> new Run.CellView(c.name(), c.workload(),
                    c.form().name(), c.selector().service(), c.selector().namespace(), c.selector().tenant(),
                    read.get(c.name()).pods())).toList();
            return new Run(plan.name(), plan.from(), plan.to(), Run.overall(outcomes),
                    count(outcomes, Run.PASS), count(outcomes, Run.FAIL), count(outcomes, Run.NO_DATA), views,
                    List.copyOf(outcomes), matrix, commitments, Advice.risks(outcomes, matrix),
                    Advice.actions(outcomes, matrix, commitments, fleet.runbook),
                    fleet.runbook == null ? List.of() : List.of(fleet.runbook.call()));
        });
    }

    /** The fleet-wide reads, each made once and only when a clause or the matrix needs it. */
    private Uni<Void> fleet(Plan plan, Map<String, CellData> read, FleetFigures fleet) {
        boolean byTenant = plan.cells().stream().anyMatch(c -> c.selector().tenant() != null);
        boolean byQueue = read.values().stream().anyMatch(d -> d.cell().selector().tenant() == null
                && !d.clusterQueues().isEmpty());
        boolean fragmentation = plan.assertions().stream().anyMatch(a -> a.metric() == Plan.Metric.FRAGMENTATION);
        Uni<Void> chain = Uni.createFrom().voidItem();
        if (byQueue) {
            chain = chain.chain(() -> ledger.queueWait(plan.from(), plan.to(), "clusterQueue")
                    .invoke(r -> fleet.waitByClusterQueue = r)).replaceWithVoid();
        }
        if (byTenant) {
            chain = chain.chain(() -> ledger.queueWait(plan.from(), plan.to(), "tenant")
                    .invoke(r -> fleet.waitByTenant = r)).replaceWithVoid();
        }
        if (read.values().stream().anyMatch(d -> !d.pods().isEmpty())) {
            chain = chain.chain(() -> ledger.gpuHours(plan.from(), plan.to(), "pod,model")
                    .invoke(r -> fleet.hoursByPod = r)).replaceWithVoid();
            chain = chain.chain(() -> others.costs(plan.from(), plan.to(), "namespace")
                    .invoke(r -> fleet.costsByNamespace = r)).replaceWithVoid();
        }
        chain = chain.chain(() -> others.runbook().invoke(r -> fleet.runbook = r)).replaceWithVoid();
        if (!plan.cells().isEmpty()) {
            TimeWindow window = new TimeWindow(plan.from(), plan.to());
            chain = chain.chain(() -> ledger.supply(window).invoke(r -> fleet.supply = r)).replaceWithVoid();
            chain = chain.chain(() -> ledger.demand(window).invoke(r -> fleet.demand = r)).replaceWithVoid();
        }
        if (fragmentation) {
            chain = chain.chain(() -> ledger.fragmentation(plan.to()).invoke(r -> fleet.fragmentation = r))
                    .replaceWithVoid();
        }
        for (Plan.Clause clause : plan.assertions()) {
            if (clause.metric() == Plan.Metric.INTERFERENCE_FACTOR && read.get(clause.cell()).service() != null
                    && plan.cells().stream().noneMatch(c -> c.form() == Plan.Form.DEDICATED
                    && c.workload().equals(plan.cell(clause.cell()).workload()))) {
                CellData cell = read.get(clause.cell());
                chain = chain.chain(() -> ownInterference(cell, clause, plan)
                        .invoke(r -> fleet.interference.put(cell.cell().name(), r))).replaceWithVoid();
            }
            if (clause.kind() == Plan.Kind.BLOCKED) {
                Instant at = Judge.checkedAt(plan, clause);
                chain = chain.chain(() -> fleet.pending.containsKey(at) ? Uni.createFrom().voidItem()
                        : ledger.pending(at).invoke(r -> fleet.pending.put(at, r)).replaceWithVoid());
            }
        }
        return chain;
    }

    /** The service's own interference report, reused as it is served: its worst shared bucket's IF_latency. */
    private Uni<LedgerReads.Read<Double>> ownInterference(CellData cell, Plan.Clause clause, Plan plan) {
        Sli sli = clause.sli() == null ? Sli.TTFT : clause.sli();
        String curl = CurlLine.slo("/api/v1/interference", "service", cell.service(), "namespace", cell.namespace(),
                "sli", sli.name(), "from", plan.from().toString(), "to", plan.to().toString());
        return Uni.createFrom().deferred(() -> interference.report(cell.service(), cell.namespace(), sli,
                        new TimeWindow(plan.from(), plan.to())))
                .map(report -> {
                    Double worst = report.byNeighbours().stream().skip(1).map(b -> b.ifLatency())
                            .filter(java.util.Objects::nonNull).map(java.math.BigDecimal::doubleValue)
                            .max(Double::compare).orElse(null);
                    return new LedgerReads.Read<>(worst, new Run.Call(curl, 200, write(report)));
                })
                .onFailure().recoverWithItem(e -> new LedgerReads.Read<>(null, new Run.Call(curl, -1,
                        "no answer: " + io.gpumeter.common.client.Answers.reason(e))));
    }

    public Uni<StoredRun> get(long id) {
        return runs.byId(id);
    }

    public Uni<Page<StoredRun>> page(int offset, int limit) {
        return runs.page(offset, limit);
    }

    /** The run as answered: its id and creation time, then the run as computed. */
    public ObjectNode view(StoredRun row) {
        ObjectNode out = json.createObjectNode();
        out.put("id", row.id);
        out.put("createdAt", row.createdAt.toString());
        try {
            out.setAll((ObjectNode) json.readTree(row.run));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored run is JSON this service wrote", e);
        }
        return out;
    }

    public Run run(StoredRun row) {
        try {
            return json.readValue(row.run, Run.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored run is JSON this service wrote", e);
        }
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a run writes as JSON", e);
        }
    }

    private static int count(List<Run.Outcome> outcomes, String verdict) {
        return (int) outcomes.stream().filter(o -> verdict.equals(o.verdict())).count();
    }
}
