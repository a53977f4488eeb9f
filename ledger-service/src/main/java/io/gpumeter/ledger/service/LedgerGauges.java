package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.fragmentation.domain.Fragmentation;
import io.gpumeter.ledger.repository.GaugeRepository;
import io.gpumeter.ledger.violation.domain.Violation;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/** Fleet gauges for Grafana (allocated and used card-equivalents, fragmentation), tagged by cluster and fixed values. */
@ApplicationScoped
public class LedgerGauges {

    private static final Logger LOG = Logger.getLogger(LedgerGauges.class);

    private final MeterRegistry registry;
    private final GaugeRepository figures;
    private final FragmentationService fragmentation;
    private final Duration usageDelay;
    private final Clock clock;
    private final Map<Tags, AtomicReference<Double>> allocated = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicReference<Double>> used = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicReference<Double>> memoryRatio = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicReference<Double>> migRatio = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicReference<Double>> openViolations = new ConcurrentHashMap<>();
    private final ViolationService violations;

    public LedgerGauges(MeterRegistry registry, GaugeRepository figures, FragmentationService fragmentation,
                        ViolationService violations, LedgerConfig config, Clock clock) {
        this.registry = registry;
        this.violations = violations;
        this.figures = figures;
        this.fragmentation = fragmentation;
        this.usageDelay = config.gauges().usageDelay();
        this.clock = clock;
    }

    /** Recomputes every gauge; a failed refresh keeps the previous values and is logged. */
    public Uni<Void> refresh() {
        Instant now = clock.instant();
        Instant minute = now.minus(usageDelay).truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));
        return figures.allocated(now).invoke(this::setAllocated)
                .chain(() -> figures.used(minute)).invoke(this::setUsed)
                .chain(() -> fragmentation.probe(now, fragmentation.configuredMix(), FragmentationService.CLUSTER, null))
                .invoke(this::setFragmentation)
                .chain(() -> violations.find(now.minus(OPEN_LOOKBACK), now))
                .invoke(found -> setOpenViolations(found, minute))
                .replaceWithVoid()
                .onFailure().invoke(e -> LOG.warn("ledger gauges not refreshed", e))
                .onFailure().recoverWithNull();
    }

    /** Episodes are read back this far; one still running at the last complete minute is open. */
    private static final Duration OPEN_LOOKBACK = Duration.ofHours(1);

    private void setOpenViolations(List<Violation> found, Instant lastMinute) {
        openViolations.values().forEach(v -> v.set(0d));
        for (Violation v : found) {
            // a finding on a pod still held has no end yet: it is open
            if (v.end() == null || v.end().isAfter(lastMinute)) {
                openViolations.computeIfAbsent(Tags.of("cluster", v.cluster(), "kind", v.kind().name()), t -> {
                    AtomicReference<Double> value = new AtomicReference<>(0d);
                    Gauge.builder("gpumeter.ledger.violations.open", value, AtomicReference::get).tags(t)
                            .description("Over-use, bypass and drift episodes still running at the last complete minute")
                            .register(registry);
                    return value;
                }).updateAndGet(x -> x + 1);
            }
        }
    }

    private void setAllocated(List<GaugeRepository.Figure> rows) {
        allocated.values().forEach(v -> v.set(0d));
        for (GaugeRepository.Figure f : rows) {
            Tags tags = Tags.of("cluster", f.cluster(), "kind", f.kind());
            allocated.computeIfAbsent(tags, t -> {
                AtomicReference<Double> value = new AtomicReference<>(0d);
                Gauge.builder("gpumeter.ledger.gpus.allocated", value, AtomicReference::get).tags(t)
                        .description("Card-equivalents allocated now, by unit kind").register(registry);
                return value;
            }).set(f.value());
        }
    }

    private void setUsed(List<GaugeRepository.Figure> rows) {
        used.values().forEach(v -> v.set(0d));
        for (GaugeRepository.Figure f : rows) {
            used.computeIfAbsent(Tags.of("cluster", f.cluster()), t -> {
                AtomicReference<Double> value = new AtomicReference<>(0d);
                Gauge.builder("gpumeter.ledger.gpus.used", value, AtomicReference::get).tags(t)
                        .description("Card-equivalents busy in the last complete minute (SM_ACTIVE, else GR_ENGINE_ACTIVE, "
                                + "else GPU_UTIL)")
                        .register(registry);
                return value;
            }).set(f.value());
        }
    }

    private void setFragmentation(List<Fragmentation> groups) {
        memoryRatio.values().forEach(v -> v.set(Double.NaN));
        migRatio.values().forEach(v -> v.set(Double.NaN));
        for (Fragmentation g : groups) {
            String cluster = g.group().get("cluster");
            for (Fragmentation.ShapeFigure s : g.memory().shapes()) {
                memory(Tags.of("cluster", cluster, "shape", s.sizeGiB() + "GiB")).set(value(s.ratio()));
            }
            memory(Tags.of("cluster", cluster, "shape", "overall")).set(value(g.memory().overall()));
            migRatio.computeIfAbsent(Tags.of("cluster", cluster), t -> {
                AtomicReference<Double> value = new AtomicReference<>(Double.NaN);
                Gauge.builder("gpumeter.ledger.fragmentation.mig.ratio", value, AtomicReference::get).tags(t)
                        .description("Share of free MIG slices that fit no configured profile").register(registry);
                return value;
            }).set(value(g.mig().ratio()));
        }
    }

    private AtomicReference<Double> memory(Tags tags) {
        return memoryRatio.computeIfAbsent(tags, t -> {
            AtomicReference<Double> value = new AtomicReference<>(Double.NaN);
            Gauge.builder("gpumeter.ledger.fragmentation.ratio", value, AtomicReference::get).tags(t)
                    .description("Share of free GPU memory requests of the shape cannot use; overall weighs the shape mix")
                    .register(registry);
            return value;
        });
    }

    private static double value(BigDecimal ratio) {
        return ratio == null ? Double.NaN : ratio.doubleValue();
    }
}
