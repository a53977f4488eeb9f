package io.gpumeter.common.security;

import io.gpumeter.common.problem.Problem;
import io.gpumeter.common.problem.ProblemMapper;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Every {@code /api/} request passes here once: the bearer token is verified (SmallRye JWT), the caller's roles are
 * checked against {@link AccessRules}, and a tenant-confined caller is held to its own tenant — a request naming
 * another tenant is refused, and one naming none is narrowed to the caller's, so each endpoint's tenant filter does
 * the rest. Health, metrics and OpenAPI live outside {@code /api/} and stay open.
 */
public class AccessFilter {

    @Inject
    CurrentIdentityAssociation identities;

    @ConfigProperty(name = "gpumeter.auth.enabled", defaultValue = "true")
    boolean enabled;

    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION)
    public Uni<Response> authorize(ContainerRequestContext request) {
        String path = request.getUriInfo().getRequestUri().getRawPath();
        if (!enabled || !path.startsWith("/api/")) {
            return Uni.createFrom().nullItem();
        }
        AccessRule rule = AccessRules.match(request.getMethod(), path);
        if (rule.ownToken()) {
            return Uni.createFrom().nullItem();
        }
        if (request.getHeaderString(HttpHeaders.AUTHORIZATION) == null) {
            return Uni.createFrom().item(unauthorized("Send a bearer token in the Authorization header."));
        }
        return identities.getDeferredIdentity()
                .onItemOrFailure().transform((identity, failure) -> {
                    if (failure != null || identity == null || identity.isAnonymous()) {
                        return unauthorized("The bearer token is not valid: it must be a JWT signed with the "
                                + "configured key, from the configured issuer, and not expired.");
                    }
                    return decide(request, rule, identity);
                });
    }

    private Response decide(ContainerRequestContext request, AccessRule rule, SecurityIdentity identity) {
        Caller caller = Caller.of(identity.getRoles());
        if (caller.ambiguous()) {
            return forbidden(null, "A tenant token must name exactly one tenant.");
        }
        if (!caller.mayCall(rule)) {
            return forbidden(null, "The token's roles " + identity.getRoles().stream().sorted().toList()
                    + " may not call " + rule.family().toLowerCase() + ".");
        }
        Optional<String> tenant = caller.confinedTo();
        return tenant.map(own -> confine(request, rule, own)).orElse(null);
    }

    private static Response confine(ContainerRequestContext request, AccessRule rule, String own) {
        int segment = rule.tenantSegment();
        if (segment >= 0) {
            String[] segments = AccessRule.segments(request.getUriInfo().getRequestUri().getRawPath());
            String named = segments.length > segment
                    ? URLDecoder.decode(segments[segment].replace("+", "%2B"), StandardCharsets.UTF_8) : null;
            return own.equals(named) ? null : otherTenant("tenant", own);
        }
        MultivaluedMap<String, String> query = request.getUriInfo().getQueryParameters();
        List<String> named = query.get(rule.tenantParam());
        if (named == null || named.isEmpty()) {
            URI narrowed = request.getUriInfo().getRequestUriBuilder().queryParam(rule.tenantParam(), own).build();
            request.setRequestUri(narrowed);
            return null;
        }
        return named.stream().allMatch(own::equals) ? null : otherTenant(rule.tenantParam(), own);
    }

    private static Response otherTenant(String field, String own) {
        return forbidden(field, "This token reads only tenant '" + own + "'.");
    }

    private static Response unauthorized(String detail) {
        return Response.fromResponse(ProblemMapper.respond(Problem.of(401, "Unauthorized", detail, null)))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }

    private static Response forbidden(String field, String detail) {
        return ProblemMapper.respond(Problem.of(403, "Forbidden", detail, field));
    }
}
