package io.gpumeter.ledger.rest;

import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The normalization policy in force, so every report can print it. */
@Path("/api/v1/normalization")
public class NormalizationResource {

    /** What reports print: the rules in words and their version. */
    public record PolicyView(String policy, String version) {
    }

    private final NormalizationPolicy policy;

    public NormalizationResource(NormalizationPolicy policy) {
        this.policy = policy;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public PolicyView current() {
        return new PolicyView(policy.describe(), policy.version());
    }
}
