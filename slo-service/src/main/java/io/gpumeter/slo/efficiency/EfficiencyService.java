package io.gpumeter.slo.efficiency;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.repository.EngineGaugeRepository;
import io.gpumeter.slo.repository.LatencyRepository;
import io.gpumeter.slo.service.ServiceNamespaces;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Tokens per joule of an inference service over a window: its pods (those that reported its requests or its engine
 * gauges, in its namespace), their token counters from this service's store, and their energy from one read of the
 * ledger's GPU-hours grouped by cluster and pod, of which the service's pods are kept.
 */
@ApplicationScoped
public class EfficiencyService {

    /** The ledger's grouping the energy is read in: one row per pod and cluster it held units in. */
    static final String GROUP_BY = "cluster,pod";

    /**
     * The answer.
     *
     * @param energyKWh the counted pods' energy in kWh, as the ledger writes it (joules / 3.6e6)
     */
    public record Report(String service, String namespace, Instant from, Instant to, Double tokensPerJoule,
                         Double tokens, Double joules, Double energyKWh, Double energyCoverage, String energySource,
                         int pods, int podsCounted, String missing, List<String> notes,
                         List<TokensPerJoule.Pod> byPod) {
    }

    private final LatencyRepository latency;
    private final EngineGaugeRepository gauges;
    private final LedgerClient ledger;
    private final SloConfig config;

    public EfficiencyService(LatencyRepository latency, EngineGaugeRepository gauges, LedgerClient ledger,
                             SloConfig config) {
        this.latency = latency;
        this.gauges = gauges;
        this.ledger = ledger;
        this.config = config;
    }

    /**
     * @param namespace the service's namespace; null for the only namespace whose pods reported it in the window
     * @throws ApiProblem 400 naming {@code to} for a window longer than the latency query maximum, or
     *                    {@code namespace} for a malformed namespace or a service several namespaces reported
     */
    public Uni<Report> report(String service, String namespace, TimeWindow window) {
        if (window.duration().compareTo(config.latency().maxQueryWindow()) > 0) {
            throw ApiProblem.badRequest("to", "an efficiency window spans at most "
                    + config.latency().maxQueryWindow() + "; narrow from/to");
        }
        String named = ServiceNamespaces.parameter("namespace", namespace);
        return latency.podsOf(service, named, window).chain(requests -> gauges.podsOf(service, named, window)
                .map(engine -> {
                    Set<String> pods = new TreeSet<>(requests);
                    pods.addAll(engine);
                    return pods;
                })).chain(pods -> {
            List<String> namespaces = pods.stream().map(p -> p.substring(0, p.indexOf('/'))).distinct().toList();
            if (named == null && namespaces.size() > 1) {
                throw ServiceNamespaces.ambiguous("namespace", "service '" + service + "'", namespaces, " between "
                        + window.start() + " and " + window.end());
            }
            String ns = named != null ? named : namespaces.isEmpty() ? null : namespaces.get(0);
            return gauges.tokenReadings(pods, window).chain(tokens -> energy(pods, window).map(read -> {
                TokensPerJoule.Result r = TokensPerJoule.of(pods, tokens, PodEnergy.of(read.answer, pods),
                        read.unread);
                return new Report(service, ns, window.start(), window.end(), r.tokensPerJoule(), r.tokens(),
                        r.joules(), r.joules() == null ? null : r.joules() / PodEnergy.JOULES_PER_KWH,
                        r.energyCoverage(), r.energySource(), pods.size(), r.podsCounted(), r.missing(), r.notes(),
                        r.pods());
            }));
        });
    }

    /** The ledger's answer, or why there is none. */
    private record EnergyRead(JsonNode answer, String unread) {
    }

    /** One read for all the pods; none for no pods. */
    private Uni<EnergyRead> energy(Set<String> pods, TimeWindow window) {
        if (pods.isEmpty()) {
            return Uni.createFrom().item(new EnergyRead(null, null));
        }
        return ledger.gpuHours(window.start(), window.end(), GROUP_BY)
                .map(answer -> answer != null && answer.isArray() ? new EnergyRead(answer, null)
                        : new EnergyRead(null, "the ledger answered no list of GPU-hours"))
                .onFailure().recoverWithItem(e -> new EnergyRead(null, "no answer: " + Answers.reason(e)));
    }
}
