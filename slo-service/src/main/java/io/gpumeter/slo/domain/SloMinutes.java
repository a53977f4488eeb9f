package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An SLO's events from its pods' stored minutes. The unit a per-MINUTE objective judges is a service's minute: the
 * histograms of the service's selected pods merged, so a tenant SLO over two services has two events a minute. A
 * service is known by its namespace and name, so one name in two namespaces is two services, never merged.
 * Per REQUEST and for AVAILABILITY every request is an event either way.
 */
public final class SloMinutes {

    /** One pod-minute's own events, judged as the SLO judges its service's minute. */
    public record PodEvents(PodMinute pod, MinuteEvents events) {
    }

    /** A service's minute: the SLO's events over its selected pods, and each pod's own. */
    public record ServiceMinute(String namespace, String service, Instant minute, MinuteEvents events,
                                List<PodEvents> pods) {

        public boolean bad() {
            return events.good() < events.total();
        }
    }

    private SloMinutes() {
    }

    /** The SLO's good and total events per minute, summed over services, in minute order. */
    public static List<MinuteEvents> perMinute(SloDefinition slo, List<PodMinute> pods) {
        List<MinuteEvents> out = new ArrayList<>();
        long[] sums = new long[2];
        Instant[] current = new Instant[1];
        forEachServiceMinute(slo, pods, false, m -> {
            if (current[0] != null && !current[0].equals(m.minute())) {
                out.add(new MinuteEvents(current[0], sums[0], sums[1]));
                sums[0] = 0;
                sums[1] = 0;
            }
            current[0] = m.minute();
            sums[0] += m.events().good();
            sums[1] += m.events().total();
        });
        if (current[0] != null) {
            out.add(new MinuteEvents(current[0], sums[0], sums[1]));
        }
        return out;
    }

    /**
     * Walks the pod-minutes a minute at a time (holding one minute's histograms, never the window's), handing each
     * service-minute to {@code sink} in minute, then service, then namespace order.
     *
     * @param withPods whether each pod-minute's own events are judged too (they cost a percentile each)
     */
    public static void forEachServiceMinute(SloDefinition slo, List<PodMinute> pods, boolean withPods,
                                            Consumer<ServiceMinute> sink) {
        List<PodMinute> ordered = new ArrayList<>(pods);
        ordered.sort(Comparator.comparing(PodMinute::minute).thenComparing(PodMinute::service)
                .thenComparing(PodMinute::namespace));
        int i = 0;
        while (i < ordered.size()) {
            Instant minute = ordered.get(i).minute();
            Map<List<String>, List<PodMinute>> byService = new LinkedHashMap<>();
            for (; i < ordered.size() && ordered.get(i).minute().equals(minute); i++) {
                PodMinute p = ordered.get(i);
                byService.computeIfAbsent(List.of(p.namespace(), p.service()), s -> new ArrayList<>()).add(p);
            }
            byService.forEach((service, list) -> sink.accept(serviceMinute(slo, service.get(0), service.get(1), minute,
                    list, withPods)));
        }
    }

    private static ServiceMinute serviceMinute(SloDefinition slo, String namespace, String service, Instant minute,
                                               List<PodMinute> pods, boolean withPods) {
        List<PodEvents> own = new ArrayList<>();
        if (!slo.sli().isLatency()) {
            long requests = 0;
            long failed = 0;
            for (PodMinute p : pods) {
                requests += p.requests();
                failed += p.failed();
                if (withPods) {
                    own.add(new PodEvents(p, SliEvents.availability(minute, p.requests(), p.failed())));
                }
            }
            return new ServiceMinute(namespace, service, minute, SliEvents.availability(minute, requests, failed),
                    own);
        }
        Histogram merged = LatencyHistograms.empty();
        for (PodMinute p : pods) {
            Histogram h = LatencyHistograms.empty();
            LatencyHistograms.mergeInto(h, p.histogram());
            merged.add(h);
            if (withPods) {
                own.add(new PodEvents(p, SliEvents.latency(slo.objective(), minute, h)));
            }
        }
        return new ServiceMinute(namespace, service, minute, SliEvents.latency(slo.objective(), minute, merged), own);
    }
}
