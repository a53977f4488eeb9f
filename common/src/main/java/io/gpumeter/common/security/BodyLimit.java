package io.gpumeter.common.security;

import io.gpumeter.common.problem.Problem;
import io.gpumeter.common.problem.ProblemMapper;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.Optional;

/**
 * The body size a service accepts ({@code gpumeter.limits.max-body-size}), refused as a 413 problem naming the
 * limit before a byte of the body is read. The HTTP server's own hard limit ({@code quarkus.http.limits.max-body-size})
 * sits above this one and only catches bodies sent without a length.
 */
public class BodyLimit {

    @ConfigProperty(name = "gpumeter.limits.max-body-size", defaultValue = "32M")
    MemorySize maxBodySize;

    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION - 100)
    public Optional<Response> check(ContainerRequestContext request) {
        String method = request.getMethod();
        if (HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method) || HttpMethod.DELETE.equals(method)) {
            return Optional.empty();
        }
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        long limit = maxBodySize.asLongValue();
        long given;
        try {
            given = length == null ? -1 : Long.parseLong(length.strip());
        } catch (NumberFormatException e) {
            return Optional.of(ProblemMapper.respond(Problem.of(400, "Bad Request",
                    "Content-Length is not a number", "Content-Length")));
        }
        if (given > limit) {
            return Optional.of(ProblemMapper.respond(Problem.of(413, "Content Too Large",
                    "This endpoint takes bodies of at most " + limit + " bytes (gpumeter.limits.max-body-size); "
                            + "this one has " + given + ". Split it into several requests.", "body")));
        }
        return Optional.empty();
    }
}
