package io.gpumeter.slo.rest;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.service.InterferenceService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.math.BigDecimal;

/**
 * The interference factor of a service, bucketed by same-card neighbours, and the SLO assertion form of it. A service
 * is known by its namespace and name: without {@code namespace}, the only namespace that reported the service in the
 * window is read, and several are a 400 naming {@code namespace}.
 */
@Path("/api/v1/interference")
@Produces(MediaType.APPLICATION_JSON)
public class InterferenceResource {

    private final InterferenceService interference;

    public InterferenceResource(InterferenceService interference) {
        this.interference = interference;
    }

    @GET
    @Operation(summary = "IF_latency and IF_throughput by number (0 = dedicated, 1, 2, 3+) and kind of neighbours;"
            + " with narrow=true a window longer than the configured maximum is read over its latest maximum, the"
            + " answer saying the window it read")
    public Uni<InterferenceService.Report> report(@QueryParam("service") String service,
                                                  @QueryParam("namespace") String namespace,
                                                  @QueryParam("from") String from,
                                                  @QueryParam("to") String to, @QueryParam("sli") String sli,
                                                  @QueryParam("narrow") String narrow) {
        String name = service(service);
        TimeWindow window = Params.window(from, to);
        return interference.report(name, namespace, sli(sli), window, Params.flag("narrow", narrow));
    }

    @GET
    @Path("/assertions")
    @Operation(summary = "Check \"with n shared pods p99 <= maxRatio x dedicated\": pass or fail with the numbers")
    public Uni<InterferenceService.Assertion> assertion(@QueryParam("service") String service,
                                                        @QueryParam("namespace") String namespace,
                                                        @QueryParam("from") String from, @QueryParam("to") String to,
                                                        @QueryParam("sli") String sli,
                                                        @QueryParam("neighbours") String neighbours,
                                                        @QueryParam("maxRatio") String maxRatio) {
        String name = service(service);
        TimeWindow window = Params.window(from, to);
        Sli parsed = sli(sli);
        int n;
        try {
            n = Integer.parseInt(neighbours == null ? "" : neighbours.strip());
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 1) {
            throw ApiProblem.badRequest("neighbours", "neighbours must be a whole number of shared pods from 1 (3 or"
                    + " more read the 3+ bucket), got '" + neighbours + "'");
        }
        BigDecimal ratio;
        try {
            ratio = new BigDecimal(maxRatio == null ? "" : maxRatio.strip());
        } catch (NumberFormatException e) {
            ratio = BigDecimal.ZERO;
        }
        if (ratio.signum() <= 0) {
            throw ApiProblem.badRequest("maxRatio", "maxRatio must be a number above 0 such as 1.5, got '" + maxRatio
                    + "'");
        }
        return interference.assertion(name, namespace, parsed, window, n, ratio);
    }

    private static String service(String service) {
        if (service == null || service.isBlank()) {
            throw ApiProblem.badRequest("service", "service is required");
        }
        return service.strip();
    }

    /** TTFT unless named: time to first token is what sharing a card hurts first. */
    private static Sli sli(String sli) {
        if (sli == null || sli.isBlank()) {
            return Sli.TTFT;
        }
        try {
            Sli parsed = Sli.parse(sli);
            if (parsed.isLatency()) {
                return parsed;
            }
        } catch (IllegalArgumentException e) {
            // reported below with the accepted values
        }
        throw ApiProblem.badRequest("sli", "sli must be TTFT, ITL or E2E, got '" + sli + "'");
    }
}
