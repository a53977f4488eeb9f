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
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * What a verified token must satisfy beyond its roles, checked just before {@link AccessFilter} by the model's
 * {@link TokenRules} (the console applies the same before it signs anyone in): it lives no longer than
 * {@code gpumeter.auth.max-token-lifetime} (exp − iat, both present), a {@code service} token is addressed to this
 * service ({@code aud} contains {@code gpumeter.auth.audience}), and an {@code ingest} token holds nothing else.
 * People's tokens need no audience, so a console may forward them to any service.
 */
public class TokenPolicy {

    @Inject
    CurrentIdentityAssociation identities;

    @ConfigProperty(name = "gpumeter.auth.enabled", defaultValue = "true")
    boolean enabled;

    @ConfigProperty(name = "gpumeter.auth.audience")
    Optional<String> audience;

    @ConfigProperty(name = "gpumeter.auth.max-token-lifetime", defaultValue = "P30D")
    Duration maxLifetime;

    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION - 10)
    public Uni<Response> check(ContainerRequestContext request) {
        String path = request.getUriInfo().getRequestUri().getRawPath();
        if (!enabled || !path.startsWith("/api/") || request.getHeaderString(HttpHeaders.AUTHORIZATION) == null
                || AccessRules.match(request.getMethod(), path).ownToken()) {
            return Uni.createFrom().nullItem();
        }
        // An invalid token is left to AccessFilter, which answers it with its 401.
        return identities.getDeferredIdentity().onItemOrFailure().transform((identity, failure) ->
                failure != null || identity == null || identity.isAnonymous() ? null : decide(identity));
    }

    Response decide(SecurityIdentity identity) {
        if (!(identity.getPrincipal() instanceof JsonWebToken jwt)) {
            return null;
        }
        Caller caller = Caller.of(identity.getRoles());
        Set<String> addressed = Optional.ofNullable(jwt.getAudience()).orElse(Set.of());
        return TokenRules.lifetime(seconds(jwt, "iat"), seconds(jwt, "exp"), maxLifetime)
                .or(() -> TokenRules.roles(caller))
                .or(() -> TokenRules.audience(caller, addressed, audience))
                .map(refusal -> refusal.status() == 401 ? unauthorized(refusal.detail()) : forbidden(refusal.detail()))
                .orElse(null);
    }

    private static long seconds(JsonWebToken jwt, String claim) {
        return jwt.claim(claim).map(v -> v instanceof Number n ? n.longValue()
                : v.toString().matches("\\d{1,18}") ? Long.parseLong(v.toString()) : 0L).orElse(0L);
    }

    private static Response unauthorized(String detail) {
        return Response.fromResponse(ProblemMapper.respond(Problem.of(401, "Unauthorized", detail, null)))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }

    private static Response forbidden(String detail) {
        return ProblemMapper.respond(Problem.of(403, "Forbidden", detail, null));
    }
}
