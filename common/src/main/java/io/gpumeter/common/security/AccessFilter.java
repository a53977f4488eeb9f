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
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.net.URI;
import java.util.Optional;

/**
 * Every {@code /api/} request passes here once: the bearer token is verified (SmallRye JWT), the caller's roles are
 * checked against {@link AccessRules}, and a tenant-confined caller is held to its own tenant ({@link TenantScope}) —
 * a request naming another tenant is refused, and the tenant parameter of any other is replaced by the caller's, so
 * each endpoint's tenant filter does the rest. Every decision is taken on the request as {@link RequestTarget}
 * parses it once: a path the router would resolve differently from how it is written (dot or empty segments,
 * matrix parameters, broken escapes) is refused. Health, metrics and OpenAPI live outside {@code /api/} and stay
 * open.
 */
public class AccessFilter {

    @Inject
    CurrentIdentityAssociation identities;

    @ConfigProperty(name = "gpumeter.auth.enabled", defaultValue = "true")
    boolean enabled;

    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION)
    public Uni<Response> authorize(ContainerRequestContext request) {
        URI uri = request.getUriInfo().getRequestUri();
        RequestTarget target = RequestTarget.parse(uri.getRawPath(), uri.getRawQuery());
        if (!enabled || !target.underApi()) {
            return Uni.createFrom().nullItem();
        }
        if (!target.canonical()) {
            // the router would resolve what the rules never saw: refuse rather than interpret
            return Uni.createFrom().item(ProblemMapper.respond(Problem.of(400, "Bad Request",
                    "The request is not in canonical form: " + target.problem() + ".",
                    target.problem().startsWith("the query") ? "query" : "path")));
        }
        AccessRule rule = AccessRules.match(request.getMethod(), target.segments().toArray(String[]::new));
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
                    return decide(request, rule, target, identity);
                });
    }

    private Response decide(ContainerRequestContext request, AccessRule rule, RequestTarget target,
                            SecurityIdentity identity) {
        Caller caller = Caller.of(identity.getRoles());
        if (caller.ambiguous()) {
            return forbidden(null, Caller.AMBIGUOUS);
        }
        if (!caller.mayCall(rule)) {
            return forbidden(null, "The token's roles " + identity.getRoles().stream().sorted().toList()
                    + " may not call " + rule.family().toLowerCase() + ".");
        }
        Optional<String> tenant = caller.confinedTo();
        return tenant.map(own -> confine(request, rule, target, own)).orElse(null);
    }

    private static Response confine(ContainerRequestContext request, AccessRule rule, RequestTarget target, String own) {
        TenantScope.Decision decision = TenantScope.decide(rule, target, own);
        if (decision instanceof TenantScope.Refuse refuse) {
            return forbidden(refuse.field(), refuse.detail());
        }
        String query = ((TenantScope.Allow) decision).query();
        if (query != null) {
            URI uri = request.getUriInfo().getRequestUri();
            request.setRequestUri(URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath() + "?" + query));
        }
        return null;
    }

    private static Response unauthorized(String detail) {
        return Response.fromResponse(ProblemMapper.respond(Problem.of(401, "Unauthorized", detail, null)))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }

    private static Response forbidden(String field, String detail) {
        return ProblemMapper.respond(Problem.of(403, "Forbidden", detail, field));
    }
}
