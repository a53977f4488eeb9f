package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The console's pages over a month of a large fleet: {@code bench/run month}'s generator ({@link FleetMonth}, May
 * 2026) loaded into the ledger first, then the pages a person opens for that month, at an instant in it.
 */
final class ScalePages {

    private static final Instant MONTH_START = Instant.parse("2026-05-01T00:00:00Z");
    private static final Instant MONTH_END = Instant.parse("2026-06-01T00:00:00Z");
    private static final String AT = "2026-05-20T12:00:00Z";

    private final FleetMonth fleet;

    private ScalePages(FleetMonth fleet) {
        this.fleet = fleet;
    }

    /** Loads the month of {@code gpus} cards (about {@code pods} pods; 0 for the generator's own count). */
    static ScalePages load(Suite suite, int gpus, long pods) {
        double scale = pods > 0 ? FleetMonth.scaleFor(gpus, pods, MONTH_START, MONTH_END) : 1.0;
        FleetMonth fleet = new FleetMonth(gpus, MONTH_START, MONTH_END, 42, scale);
        FactPoster poster = new FactPoster(suite.url(Service.LEDGER), "Bearer " + suite.adminToken());
        long t0 = System.nanoTime();
        fleet.emit(20_000, poster::post, poster::post);
        System.out.printf("loaded a month of %,d GPUs: %,d pods, the HAMi pool's queued in Kueue, in %.0f s%n", gpus,
                fleet.pods(), (System.nanoTime() - t0) / 1e9);
        return new ScalePages(fleet);
    }

    /** The pages a person opens for the month, as in the demo's run. */
    Map<String, String> pages() {
        String week = "from=2026-05-14&to=2026-05-21";
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("fleet", "/fleet?at=" + AT);
        pages.put("fleet-pool", "/fleet?at=" + AT + "&group=" + FleetMonth.CLUSTER + "%2FNVIDIA-H100-80GB-HBM3");
        pages.put("fleet-used", "/fleet?at=" + AT + "&colour=used");
        pages.put("card", "/fleet/card?uuid=" + fleet.hamiUuids().get(0) + "&at=" + AT);
        pages.put("hours", "/hours?month=2026-05");
        pages.put("budgets", "/budgets?month=2026-05");
        pages.put("slos", "/slos?window=6h&to=" + AT);
        pages.put("idle", "/idle?" + week + "&groupBy=tenant");
        pages.put("queues", "/queues?" + week + "&groupBy=clusterQueue");
        pages.put("queues-local", "/queues?" + week + "&groupBy=localQueue");
        pages.put("failures", "/failures?" + week + "&groupBy=cause");
        pages.put("jitter", "/jitter?window=6h&to=" + AT);
        pages.put("capacity", "/capacity");
        pages.put("alerts", "/alerts?state=all");
        return pages;
    }
}
