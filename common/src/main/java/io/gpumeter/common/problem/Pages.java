package io.gpumeter.common.problem;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * Pagination for every list any service answers, in one place: {@code ?limit=} (1 to 10,000) and {@code ?offset=}
 * cut the list; {@code X-Total-Count} gives its full length and a {@code Link: <…>; rel="next"} header the next
 * page. Without {@code limit} a list comes whole, so that service-to-service reads never lose rows silently.
 */
public class Pages {

    public static final int MAX_LIMIT = 10_000;

    @ServerRequestFilter
    public Optional<Response> validate(ContainerRequestContext request) {
        if (!HttpMethod.GET.equals(request.getMethod())) {
            return Optional.empty();
        }
        MultivaluedMap<String, String> q = request.getUriInfo().getQueryParameters();
        try {
            bound(q.getFirst("limit"), "limit", 1, MAX_LIMIT);
            bound(q.getFirst("offset"), "offset", 0, Integer.MAX_VALUE);
        } catch (ApiProblem p) {
            return Optional.of(ProblemMapper.respond(p.toProblem()));
        }
        return Optional.empty();
    }

    @ServerResponseFilter
    public void cut(ContainerRequestContext request, ContainerResponseContext response) {
        if (!HttpMethod.GET.equals(request.getMethod()) || response.getStatus() != 200
                || !(response.getEntity() instanceof List<?> list)) {
            return;
        }
        MultivaluedMap<String, String> q = request.getUriInfo().getQueryParameters();
        String limitParam = q.getFirst("limit");
        String offsetParam = q.getFirst("offset");
        if (limitParam == null && offsetParam == null) {
            return;
        }
        int limit = limitParam == null ? MAX_LIMIT : Integer.parseInt(limitParam.strip());
        int offset = offsetParam == null ? 0 : Integer.parseInt(offsetParam.strip());
        int from = Math.min(offset, list.size());
        int to = (int) Math.min((long) from + limit, list.size());
        response.setEntity(new java.util.ArrayList<>(list.subList(from, to)));
        response.getHeaders().putSingle("X-Total-Count", list.size());
        if (to < list.size()) {
            URI next = request.getUriInfo().getRequestUriBuilder()
                    .replaceQueryParam("offset", to).replaceQueryParam("limit", limit).build();
            response.getHeaders().putSingle("Link", "<" + next + ">; rel=\"next\"");
        }
    }

    private static void bound(String value, String field, int min, int max) {
        if (value == null) {
            return;
        }
        long n;
        try {
            n = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw ApiProblem.badRequest(field, field + " must be a whole number");
        }
        if (n < min || n > max) {
            throw ApiProblem.badRequest(field, field + " must be between " + min + " and " + max);
        }
    }
}
