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
 * page. Without {@code limit} a list comes whole, so that service-to-service reads never lose rows silently. A
 * resource whose query pages in SQL answers a {@link Page}, which this takes as cut; any other list is cut here.
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
            Window.of(q.getFirst("limit"), q.getFirst("offset"));
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
        Window window = Window.of(q.getFirst("limit"), q.getFirst("offset"));
        if (window.whole()) {
            return;
        }
        long total;
        long to;
        if (list instanceof Page<?> page) {
            // The query already cut the page and counted the whole list.
            total = page.total();
            to = (long) window.offset() + page.size();
        } else {
            int from = Math.min(window.offset(), list.size());
            int end = (int) Math.min((long) from + window.limit(), list.size());
            response.setEntity(new java.util.ArrayList<>(list.subList(from, end)));
            to = end;
            total = list.size();
        }
        response.getHeaders().putSingle("X-Total-Count", total);
        if (to < total) {
            URI next = request.getUriInfo().getRequestUriBuilder()
                    .replaceQueryParam("offset", to).replaceQueryParam("limit", window.limit()).build();
            response.getHeaders().putSingle("Link", "<" + next + ">; rel=\"next\"");
        }
    }

    static long bound(String value, String field, int min, int max) {
        long n;
        try {
            n = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw ApiProblem.badRequest(field, field + " must be a whole number");
        }
        if (n < min || n > max) {
            throw ApiProblem.badRequest(field, field + " must be between " + min + " and " + max);
        }
        return n;
    }
}
