package io.gpumeter.alert.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.time.Instant;
import java.util.List;

/**
 * The slo-service reads two rules need: the SLOs, and each one's burn rates and recent latency windows. Use
 * {@link SloClient}, which adds the call policy.
 */
@Path("/api/v1/slos")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "slo")
interface SloRestClient {

    record SloView(String name, Selector selector, String sli, Objective objective) {
    }

    record Selector(String service, String tenant, String namespace) {
    }

    record Objective(Double percentile, Double thresholdMs) {
    }

    /** One multi-window burn-rate condition, e.g. page at 14.4× over 1 h and 5 m. */
    record BurnView(String severity, Double factor, String longWindow, String shortWindow, Double longRate,
                    Double shortRate, boolean firing) {
    }

    record WindowView(Instant start, Instant end, Double p99Ms) {
    }

    record StatusView(List<BurnView> burnRates, List<WindowView> windows) {
    }

    @GET
    Uni<List<SloView>> slos();

    @GET
    @Path("/{name}/status")
    Uni<StatusView> status(@PathParam("name") String name, @QueryParam("from") String from, @QueryParam("to") String to);
}
