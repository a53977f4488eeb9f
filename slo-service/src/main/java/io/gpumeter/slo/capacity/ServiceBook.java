package io.gpumeter.slo.capacity;

import io.gpumeter.slo.client.Demand;
import io.gpumeter.slo.repository.RequestRateRepository;
import io.gpumeter.slo.repository.StoredSlo;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What slo-service's own books say of the services behind inference shapes: which service a serving workload is
 * (its pods answered the service's requests: a Deployment's pods are named after it, so a pod whose name is the
 * workload's followed by '-' is one of them; or the service is named as the workload), the service's latency SLO, its
 * busiest-hour request rate of each day, and the latest passing run's measurement under the shape's form.
 */
final class ServiceBook {

    private final List<RequestRateRepository.ServicePod> pods;
    private final Map<String, Map<LocalDate, Double>> busiest = new HashMap<>();
    private final List<StoredSlo> slos;
    private final Deliverables deliverables;

    ServiceBook(List<RequestRateRepository.ServicePod> pods, List<RequestRateRepository.BusiestHour> busiest,
                List<StoredSlo> slos, Deliverables deliverables) {
        this.pods = pods;
        this.slos = slos;
        this.deliverables = deliverables;
        busiest.forEach(b -> this.busiest.computeIfAbsent(key(b.service(), b.namespace()), k -> new HashMap<>())
                .put(b.day(), b.requestsPerSecond()));
    }

    ShapePlanner.Input input(Demand.Shape shape, List<LocalDate> days) {
        double[] gpuHours = new double[days.size()];
        Map<String, Demand.Day> byDay = new HashMap<>();
        shape.days().forEach(d -> byDay.put(d.day(), d));
        for (int i = 0; i < days.size(); i++) {
            Demand.Day d = byDay.get(days.get(i).toString());
            double hours = Duration.between(days.get(i).atStartOfDay(ZoneOffset.UTC),
                    days.get(i).plusDays(1).atStartOfDay(ZoneOffset.UTC)).toSeconds() / 3600.0;
            gpuHours[i] = d == null || d.gpuHours() == null ? 0 : d.gpuHours().doubleValue() * 24 / hours;
        }
        Demand.Service workload = shape.service();
        String service = workload == null ? null : serviceOf(workload);
        if (service == null) {
            return new ShapePlanner.Input(shape, days, gpuHours, null, null,
                    workload == null ? null : new CapacityPlan.ServiceRef(workload.namespace(), workload.name(), null), null);
        }
        Map<LocalDate, Double> rates = busiest.getOrDefault(key(service, workload.namespace()), Map.of());
        double[] series = new double[days.size()];
        for (int i = 0; i < days.size(); i++) {
            series[i] = rates.getOrDefault(days.get(i), 0.0);
        }
        return new ShapePlanner.Input(shape, days, gpuHours, series,
                deliverables.of(service, workload.namespace(), form(shape.kind())),
                new CapacityPlan.ServiceRef(workload.namespace(), workload.name(), service), slo(service, workload.namespace()));
    }

    /** The acceptance form a request shape is measured under. */
    static String form(String kind) {
        return switch (kind == null ? "" : kind) {
            case "MIG" -> "MIG";
            case "HAMI" -> "HAMI";
            case "SHARED" -> "UNGOVERNED_SHARING";
            default -> "DEDICATED";
        };
    }

    private String serviceOf(Demand.Service workload) {
        String prefix = workload.name() + "-";
        String named = null;
        for (RequestRateRepository.ServicePod p : pods) {
            if (!workload.namespace().equals(p.namespace())) {
                continue;
            }
            if (p.pod().startsWith(prefix)) {
                return p.service();
            }
            if (p.service().equals(workload.name())) {
                named = p.service();
            }
        }
        return named;
    }

    private CapacityPlan.SloRef slo(String service, String namespace) {
        for (StoredSlo s : slos) {
            if (service.equals(s.service) && (s.namespace == null || s.namespace.equals(namespace))
                    && s.objectiveThresholdMs != null) {
                return new CapacityPlan.SloRef(s.name, s.sli, s.objectiveThresholdMs, s.target);
            }
        }
        return null;
    }

    private static String key(String service, String namespace) {
        return service + "\u0000" + namespace;
    }
}
