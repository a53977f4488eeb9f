package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One control-group experiment: the same vLLM chat template served under each form of sharing, one simulated pod
 * per arm, load-tested for {@link #SPAN} ending {@link #END_BEFORE} before the history's end. The load generator
 * records TTFT and end-to-end latency (streaming off, so no inter-token latency).
 * <p>
 * The interference model, which is the whole truth of the experiment: request {@code r} (0 to
 * {@value #REQUESTS_PER_MINUTE} - 1) of every minute has the template's TTFT {@code BASE_MS + STEP_MS × r} alone on a
 * card, multiplied under sharing by {@code 1 + slowdown × neighbours}: time-slicing slows by
 * {@value #TIME_SLICE_SLOWDOWN} per neighbour, HAMi by {@value #HAMI_SLOWDOWN} (its core and memory caps bound a
 * neighbour's share), a MIG instance by a flat {@value #MIG_FACTOR} (isolated, but a smaller slice). So each arm's
 * p99 is its largest request's, {@code (BASE_MS + STEP_MS × 11) × factor}, and an arm over dedicated is its factor.
 * <p>
 * The simulated fleet has no time-slicing pool: the time-sliced arm is served by a whole-card pod, its neighbour
 * being the model's alone.
 * <p>
 * The Kueue arm: the history's {@code acme-training/job-train-xl} asks for more than its ClusterQueue's whole quota
 * and is held back from {@link DemoSignals#usageTo()} - 40 min; the plan asserts it is blocked within
 * {@link #BLOCKED_WITHIN} of the experiment's start.
 */
public final class DemoExperiment {

    public static final Duration SPAN = Duration.ofMinutes(30);
    public static final Duration END_BEFORE = Duration.ofMinutes(30);
    public static final Duration BLOCKED_WITHIN = Duration.ofMinutes(25);
    public static final String WORKLOAD = "vllm-chat-8b";
    public static final String PLAN_NAME = "vllm-chat-8b control group";
    public static final int REQUESTS_PER_MINUTE = 12;
    public static final double BASE_MS = 80;
    public static final double STEP_MS = 5;
    public static final double TIME_SLICE_SLOWDOWN = 0.6;
    public static final double HAMI_SLOWDOWN = 0.15;
    public static final double MIG_FACTOR = 1.05;
    public static final double MAX_RATIO = 1.5;
    public static final int MIG_TTFT_P99_MS = 300;
    /** Tokens each request generates: every arm's counter grows by 12 x 180 a minute, 36 tokens/s. */
    public static final int TOKENS_PER_REQUEST = 180;
    /** The least the dedicated arm must generate, tokens/s. */
    public static final int MIN_TOKENS_PER_S = 30;
    /** The most the dedicated arm's idle GPU time may cost over the span (billing's currency). */
    public static final double MAX_IDLE_COST = 1.0;
    public static final String HELD_NAMESPACE = "acme-training";
    public static final String HELD_WORKLOAD = "job-train-xl";

    /** One arm: its cell name, form, declared neighbours, the service its requests are recorded under, its pod. */
    public record Arm(String cell, String form, int neighbours, String service, SimPod pod) {

        /** The model's slowdown of this arm. */
        public double factor() {
            return switch (form) {
                case "UNGOVERNED_SHARING" -> 1 + TIME_SLICE_SLOWDOWN * neighbours;
                case "HAMI" -> 1 + HAMI_SLOWDOWN * neighbours;
                case "MIG" -> MIG_FACTOR;
                default -> 1;
            };
        }
    }

    private final DemoSignals signals;
    private final List<Arm> arms = new ArrayList<>();

    public DemoExperiment(Plan plan, DemoSignals signals) {
        this.signals = signals;
        Set<String> taken = new HashSet<>();
        // the demo's own services and their cards are left alone, so their answers stay as they were
        signals.services().forEach(s -> {
            taken.add(s.pod().uid());
            s.pod().grants().forEach(g -> taken.add(g.gpuUuid()));
        });
        add(plan, taken, "dedicated", "DEDICATED", 0, p -> p.pool() == GpuPool.WHOLE_CARD);
        add(plan, taken, "time-sliced", "UNGOVERNED_SHARING", 1, p -> p.pool() == GpuPool.WHOLE_CARD);
        add(plan, taken, "hami-2", "HAMI", 2, p -> p.pool() == GpuPool.HAMI);
        add(plan, taken, "hami-4", "HAMI", 4, p -> p.pool() == GpuPool.HAMI);
        add(plan, taken, "mig", "MIG", 0, p -> p.pool() == GpuPool.MIG);
    }

    private void add(Plan plan, Set<String> taken, String cell, String form, int neighbours, Predicate<SimPod> which) {
        Optional<SimPod> pod = plan.pods().stream()
                .filter(p -> !p.grants().isEmpty() && p.holdsAt(from()) && p.holdsAt(to().minusSeconds(1)))
                .filter(which).filter(p -> !taken.contains(p.uid())
                        && p.grants().stream().noneMatch(g -> taken.contains(g.gpuUuid())))
                .min(Comparator.comparing(SimPod::scheduledAt).thenComparing(SimPod::uid));
        pod.ifPresent(p -> {
            taken.add(p.uid());
            p.grants().forEach(g -> taken.add(g.gpuUuid()));
            arms.add(new Arm(cell, form, neighbours, "exp-chat-" + cell, p));
        });
    }

    public List<Arm> arms() {
        return List.copyOf(arms);
    }

    public Instant from() {
        return signals.usageTo().minus(END_BEFORE).minus(SPAN);
    }

    public Instant to() {
        return signals.usageTo().minus(END_BEFORE);
    }

    /** The model's TTFT of request {@code r} of a minute under an arm. */
    public static double ttftMs(Arm arm, int r) {
        return Math.round((BASE_MS + STEP_MS * r) * arm.factor() * 1000) / 1000.0;
    }

    /** Every arm's requests of the span, as the load generator records them, for slo-service's latency intake. */
    public DemoSignals.Push latencyPush() {
        StringBuilder body = new StringBuilder();
        for (Arm arm : arms) {
            for (Instant m = from(); m.isBefore(to()); m = m.plus(Duration.ofMinutes(1))) {
                for (int r = 0; r < REQUESTS_PER_MINUTE; r++) {
                    double ttft = ttftMs(arm, r);
                    body.append("{\"service\":\"").append(arm.service()).append("\",\"namespace\":\"")
                            .append(arm.pod().namespace()).append("\",\"pod\":\"").append(arm.pod().name())
                            .append("\",\"ts\":\"").append(Rfc3339.format(m.plusSeconds(r * 5L + 1)))
                            .append("\",\"ttftMs\":").append(fmt(ttft)).append(",\"e2eMs\":").append(fmt(ttft * 12))
                            .append(",\"ok\":true}\n");
                }
            }
        }
        return new DemoSignals.Push("slo", "/api/v1/ingest/latency", "application/x-ndjson", body.toString());
    }

    /**
     * Every arm's vLLM generation-token counter ({@code vllm:generation_tokens_total}) read at the middle of each
     * minute of the span: the minute's {@value #REQUESTS_PER_MINUTE} requests of {@value #TOKENS_PER_REQUEST} tokens
     * each on top of the minutes before.
     */
    public DemoSignals.Push engineGaugePush() {
        StringBuilder body = new StringBuilder();
        for (Arm arm : arms) {
            long total = 0;
            for (Instant m = from(); m.isBefore(to()); m = m.plus(Duration.ofMinutes(1))) {
                total += (long) REQUESTS_PER_MINUTE * TOKENS_PER_REQUEST;
                body.append("{\"service\":\"").append(arm.service()).append("\",\"namespace\":\"")
                        .append(arm.pod().namespace()).append("\",\"pod\":\"").append(arm.pod().name())
                        .append("\",\"ts\":\"").append(Rfc3339.format(m.plusSeconds(30)))
                        .append("\",\"generationTokensTotal\":").append(total).append("}\n");
            }
        }
        return new DemoSignals.Push("slo", "/api/v1/ingest/engine-gauges", "application/x-ndjson", body.toString());
    }

    /**
     * The plan: every shared arm within {@value #MAX_RATIO}x of dedicated at p99 TTFT, the MIG arm's TTFT p99 under
     * {@value #MIG_TTFT_P99_MS} ms, its ITL p99 too (never recorded: no data), the dedicated arm's tokens/s at least
     * {@value #MIN_TOKENS_PER_S} and its idle cost under {@value #MAX_IDLE_COST}, and the over-quota workload blocked.
     */
    public String planJson() {
        StringBuilder cells = new StringBuilder();
        StringBuilder clauses = new StringBuilder();
        for (Arm arm : arms) {
            cells.append(cells.isEmpty() ? "" : ",").append("{\"name\":\"").append(arm.cell()).append("\",\"workload\":\"")
                    .append(WORKLOAD).append("\",\"form\":\"").append(arm.form()).append("\",\"selector\":{\"service\":\"")
                    .append(arm.service()).append("\",\"namespace\":\"").append(arm.pod().namespace()).append("\"}}");
            if (!arm.form().equals("DEDICATED") && !arm.form().equals("MIG") && has("dedicated")) {
                clauses.append(clauses.isEmpty() ? "" : ",").append("{\"name\":\"").append(arm.cell())
                        .append(" TTFT p99 within ").append(MAX_RATIO).append("x of dedicated\",\"kind\":\"RATIO\","
                                + "\"metric\":\"P99\",\"sli\":\"TTFT\",\"cell\":\"").append(arm.cell())
                        .append("\",\"baselineCell\":\"dedicated\",\"maxRatio\":").append(MAX_RATIO).append('}');
            }
            if (arm.form().equals("MIG")) {
                for (String sli : List.of("TTFT", "ITL")) {
                    clauses.append(clauses.isEmpty() ? "" : ",").append("{\"name\":\"mig ").append(sli).append(" p99 under ")
                            .append(MIG_TTFT_P99_MS).append(" ms\",\"kind\":\"THRESHOLD\",\"metric\":\"P99\",\"sli\":\"")
                            .append(sli).append("\",\"cell\":\"mig\",\"maxMs\":").append(MIG_TTFT_P99_MS).append('}');
                }
            }
        }
        if (has("dedicated")) {
            clauses.append(clauses.isEmpty() ? "" : ",").append("{\"name\":\"dedicated generates at least ")
                    .append(MIN_TOKENS_PER_S).append(" tokens/s\",\"kind\":\"THRESHOLD\",\"metric\":\"TOKENS_PER_S\","
                            + "\"cell\":\"dedicated\",\"min\":").append(MIN_TOKENS_PER_S).append('}');
            clauses.append(clauses.isEmpty() ? "" : ",").append("{\"name\":\"dedicated idle cost under ")
                    .append(MAX_IDLE_COST).append("\",\"kind\":\"THRESHOLD\",\"metric\":\"IDLE_COST\",\"cell\":\"dedicated\","
                            + "\"max\":").append(MAX_IDLE_COST).append('}');
        }
        clauses.append(clauses.isEmpty() ? "" : ",").append("{\"name\":\"over-quota training job held back by Kueue\","
                + "\"kind\":\"BLOCKED\",\"namespace\":\"").append(HELD_NAMESPACE).append("\",\"pod\":\"")
                .append(HELD_WORKLOAD).append("\",\"within\":\"").append(BLOCKED_WITHIN).append("\"}");
        return "{\"name\":\"" + PLAN_NAME + "\",\"from\":\"" + Rfc3339.format(from()) + "\",\"to\":\""
                + Rfc3339.format(to()) + "\",\"cells\":[" + cells + "],\"assertions\":[" + clauses + "]}";
    }

    private boolean has(String cell) {
        return arms.stream().anyMatch(a -> a.cell().equals(cell));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
