package io.gpumeter.collector.service;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.collector.client.UsageReceipt;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.governance.GovernanceBuffer;
import io.gpumeter.collector.governance.GovernanceDelivery;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.kubernetes.ContentChanges;
import io.gpumeter.collector.usage.DcgmSeries;
import io.gpumeter.collector.usage.GpuIndexes;
import io.gpumeter.collector.usage.HamiSeries;
import io.gpumeter.collector.usage.NvidiaSmiComputeApps;
import io.gpumeter.collector.usage.NvidiaSmiCsv;
import io.gpumeter.collector.usage.NvidiaSmiGpuQuery;
import io.gpumeter.collector.usage.NvidiaSmiPmon;
import io.gpumeter.collector.usage.ProcessOwners;
import io.gpumeter.collector.usage.ProcessSeries;
import io.gpumeter.collector.usage.ProcessUtilization;
import io.gpumeter.collector.usage.PrometheusTextParser;
import io.gpumeter.collector.usage.Sample;
import io.gpumeter.collector.usage.UsageMapping;
import io.gpumeter.collector.usage.UsageParseException;
import io.gpumeter.collector.usage.UsageSamples;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Function;

/**
 * Usage pushed to the collector — dcgm-exporter or HAMi monitor scrapes, nvidia-smi CSV and pmon — parsed whole, then
 * kept whole or not at all: added to the {@link UsageDelivery} buffer, which answers at once and delivers to the
 * ledger on its interval, or (flush interval off) delivered to the ledger as one batch before answering. Sending a
 * body twice counts once either way.
 * <p>
 * The driver versions a body names (nvidia-smi's {@code driver_version}, dcgm-exporter's {@code
 * DCGM_FI_DRIVER_VERSION} label) go with the governance facts, once per node, card and version of a body, and only
 * when a card's version is not the one last sent for it: an exporter repeats it on every series of every scrape.
 */
@ApplicationScoped
public class UsageIngestService {

    private final LedgerClient ledger;
    private final UsageDelivery buffer;
    private final CollectorConfig config;
    private final MeterRegistry metrics;

    private final Clock clock;
    private final GovernanceBuffer governance;
    private final GovernanceDelivery governanceNow;
    /** The GPU pods and nodes host intake keeps the series of: a node sending GPU usage is one. */
    private final GpuPlaces places;
    /** The driver version last sent per cluster, source, node and card: room for 100,000 cards, then the oldest goes. */
    private final ContentChanges driverVersions = new ContentChanges(100_000);

    public UsageIngestService(LedgerClient ledger, UsageDelivery buffer, CollectorConfig config, MeterRegistry metrics,
            Clock clock, GovernanceBuffer governance, GovernanceDelivery governanceNow, GpuPlaces places) {
        this.places = places;
        this.clock = clock;
        this.governance = governance;
        this.governanceNow = governanceNow;
        this.ledger = ledger;
        this.buffer = buffer;
        this.config = config;
        this.metrics = metrics;
    }

    public UsageIngestResult dcgm(String body, String node, String cluster) {
        return scrape(body, node, cluster, samples -> DcgmSeries.map(samples, clock.instant(), node));
    }

    public UsageIngestResult hamiMonitor(String body, String node, String cluster) {
        return scrape(body, node, cluster, samples -> HamiSeries.map(samples, clock.instant(), node));
    }

    /**
     * nvidia-smi CSV: the GPU query (one row per card) or the compute-apps query (one row per process), told apart
     * by the header; {@code pids} names the container of each process ({@link ProcessOwners#HEADER}).
     */
    public UsageIngestResult nvidiaSmi(String body, String node, String zone, String cluster, String pids) {
        requireNode(node);
        ZoneId tz = zone(zone);
        ProcessOwners owners = header(ProcessOwners.HEADER, () -> ProcessOwners.parse(pids));
        UsageMapping mapping = parse(() -> NvidiaSmiCsv.detect(body) == NvidiaSmiCsv.Kind.COMPUTE_APPS
                ? ProcessSeries.computeApps(NvidiaSmiComputeApps.parse(body, tz), node, owners)
                : NvidiaSmiGpuQuery.read(body, tz, node));
        return deliver(mapping, node, cluster);
    }

    /** The text of {@code nvidia-smi pmon}: per-process SM time, by GPU index ({@link GpuIndexes#HEADER}). */
    public UsageIngestResult nvidiaSmiPmon(String body, String node, String zone, String cluster, String pids,
                                           String gpus) {
        requireNode(node);
        ZoneId tz = zone(zone);
        ProcessOwners owners = header(ProcessOwners.HEADER, () -> ProcessOwners.parse(pids));
        GpuIndexes indexes = header(GpuIndexes.HEADER, () -> GpuIndexes.parse(gpus));
        List<ProcessUtilization> rows = parse(() -> NvidiaSmiPmon.parse(body, tz, clock.instant()));
        UsageMapping mapping = header(GpuIndexes.HEADER, () -> ProcessSeries.pmon(rows, node, owners, indexes));
        return deliver(mapping, node, cluster);
    }

    /** Delivers what a pull from Prometheus or a scrape yielded; node null means "as the series say". */
    public UsageIngestResult deliver(UsageMapping mapping, String node) {
        return deliver(mapping, node, null);
    }

    private UsageIngestResult scrape(String body, String node, String cluster, Function<List<Sample>, UsageMapping> mapper) {
        requireNode(node);
        List<Sample> samples = parse(() -> new PrometheusTextParser().parse(body));
        return deliver(mapper.apply(samples), node, cluster);
    }

    private UsageIngestResult deliver(UsageMapping mapping, String node, String cluster) {
        String target = cluster == null || cluster.isEmpty() ? config.cluster() : ClusterName.require("cluster", cluster);
        mapping.observations().stream().map(o -> java.util.Arrays.asList(o.node(), o.namespace(), o.pod())).distinct()
                .forEach(place -> places.usage(target, place.get(0), place.get(1), place.get(2)));
        List<io.gpumeter.common.fact.UsageSample> samples = mapping.observations().stream().map(UsageSamples::of).toList();
        UsageReceipt receipt;
        if (samples.isEmpty()) {
            receipt = new UsageReceipt(0, 0, 0);
        } else if (buffer.buffered()) {
            receipt = hold(target, samples);
        } else {
            receipt = send(new UsageBatch(target, samples));
        }
        int driverSightings = driverSightings(mapping.driverSightings(), target);
        metrics.counter("gpumeter.collector.usage.samples", "outcome", "accepted").increment(receipt.accepted());
        metrics.counter("gpumeter.collector.usage.samples", "outcome", "duplicate").increment(receipt.duplicates());
        int skipped = mapping.unknownSamples() + mapping.invalidSamples();
        metrics.counter("gpumeter.collector.usage.samples", "outcome", "skipped").increment(skipped);
        return new UsageIngestResult(target, node, samples.size(), receipt.accepted(), receipt.duplicates(), skipped,
                receipt.podsBound(), mapping.problems(), buffer.buffered(), driverSightings);
    }

    /**
     * Sends the driver versions that are news for their cards: held with the watched governance facts when usage is
     * buffered, else delivered before answering (a failure is then a 503 saying the usage is stored, and the versions
     * are sent again with the next body). Returns how many went.
     */
    private int driverSightings(List<DriverSightingFact> sightings, String cluster) {
        List<DriverSightingFact> news = sightings.stream().filter(s -> driverVersions.isNews(cluster, s)).toList();
        if (news.isEmpty()) {
            return 0;
        }
        if (buffer.buffered()) {
            news.forEach(s -> governance.add(cluster, s));
            return news.size();
        }
        try {
            governanceNow.deliver(GovernanceBatch.of(cluster, news), "the usage of this body is stored; ");
        } catch (RuntimeException e) {
            news.forEach(s -> driverVersions.forget(cluster, s));
            throw e;
        }
        return news.size();
    }

    /** Buffers the samples: accepted means held for the ledger; pods bound are the ledger's to find later. */
    private UsageReceipt hold(String cluster, List<io.gpumeter.common.fact.UsageSample> samples) {
        try {
            UsageBuffer.Added added = buffer.add(cluster, samples);
            return new UsageReceipt(added.fresh(), added.duplicates(), 0);
        } catch (UsageBuffer.Full e) {
            throw ApiProblem.unavailable(e.getMessage() + " while the ledger catches up; nothing of this body is stored,"
                    + " send it again");
        }
    }

    private UsageReceipt send(UsageBatch batch) {
        try {
            return ledger.deliver(batch);
        } catch (ApiProblem e) {
            throw e;
        } catch (FaultToleranceException | jakarta.ws.rs.ProcessingException | jakarta.ws.rs.WebApplicationException e) {
            throw ApiProblem.unavailable("the ledger is unreachable or failing; nothing of this body is stored, send it again");
        }
    }

    private static <T> T parse(java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (UsageParseException e) {
            throw ApiProblem.badRequest("line " + e.line(), e.getMessage());
        }
    }

    private static <T> T header(String name, java.util.function.Supplier<T> reader) {
        try {
            return reader.get();
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest(name, name + ": " + e.getMessage() + "; nothing of this body is stored");
        }
    }

    private static void requireNode(String node) {
        if (node == null || node.isBlank()) {
            throw ApiProblem.badRequest("node", "node is required: the name of the node the body was taken on");
        }
    }

    private static ZoneId zone(String zone) {
        if (zone == null || zone.isEmpty()) {
            return ZoneId.of("UTC");
        }
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw ApiProblem.badRequest("tz", "tz must be a time-zone id such as UTC or Europe/Berlin, got '" + zone + "'");
        }
    }
}
