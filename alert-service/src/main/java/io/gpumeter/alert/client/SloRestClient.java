package io.gpumeter.alert.client;

import io.gpumeter.common.security.ServiceToken;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.time.Instant;
import java.util.List;

/**
 * The slo-service read two rules need: every SLO with its burn-rate alerts and its service's per-minute p99, in one
 * call. Use {@link SloClient}, which adds the call policy.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "slo")
@RegisterProvider(ServiceToken.class)
interface SloRestClient {

    record SloView(String name, Selector selector, String sli, Objective objective) {
    }

    record Selector(String service, String tenant, String namespace) {
    }

    record Objective(Double percentile, Double thresholdMs) {
    }

    /** One trailing window of a burn-rate alert. */
    record BurnWindow(String window, Double burnRate) {
    }

    /** One multi-window burn-rate alert, e.g. page at 14.4x over 1 h and 5 m. */
    record AlertView(String severity, Double factor, BurnWindow longWindow, BurnWindow shortWindow, boolean firing) {
    }

    record StatusView(String state, List<AlertView> alerts) {
    }

    record Percentiles(Double p99Ms) {
    }

    record MinuteView(Instant minute, Percentiles latency) {
    }

    record LatencyView(List<MinuteView> minutes) {
    }

    /** One SLO with its status and, for a latency SLI naming a service, that service's curve (else null). */
    record StateView(SloView slo, StatusView status, LatencyView latency) {
    }

    /** Every SLO with its status as of {@code to} and its service's latency curve over [from, to). */
    @GET
    @Path("/slo-states")
    Uni<List<StateView>> states(@QueryParam("from") String from, @QueryParam("to") String to);
}
