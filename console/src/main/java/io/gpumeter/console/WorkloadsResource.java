package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * My workloads: a tenant's own pods and Kueue workloads now, what each holds or why it waits, each one a click from
 * its triage. A tenant always reads its own tenant's (the token's, whatever the address says) and the ledger answers
 * a tenant token for its own tenant only; a fleet user picks the tenant.
 */
@Path("/workloads")
@Produces(MediaType.TEXT_HTML)
public class WorkloadsResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template workloads;

    public WorkloadsResource(Session session, Upstream upstream, ObjectMapper json, @Location("workloads.html") Template workloads) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.workloads = workloads;
    }

    @GET
    @Blocking
    public TemplateInstance workloads(@CookieParam(Session.COOKIE) String cookie, @QueryParam("tenant") String tenantText,
                                      @QueryParam("cluster") String clusterText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page(viewer.tenant() != null ? "My workloads" : "A tenant's workloads", "workloads", viewer);
        String tenant = viewer.tenant() != null ? viewer.tenant() : blankToNull(tenantText);
        String cluster = blankToNull(clusterText);
        List<TenantWorkload> rows = new ArrayList<>();
        boolean read = false;
        if (tenant == null) {
            page.message(Message.info("Pick a tenant.", "Its pods and Kueue workloads now: what each holds, or why it waits."));
        } else {
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/tenants/" + Format.segment(tenant) + "/workloads"
                    + (cluster == null ? "" : "?cluster=" + Format.query(cluster)), viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                read = true;
                rows.addAll(answer.listOf(json, TenantWorkload.class));
                if (rows.isEmpty()) {
                    page.message(Message.info((viewer.tenant() != null ? "You have" : tenant + " has") + " no pod or workload now.",
                            "Pods appear here once the collector sees them; the Hours page has the past."));
                }
            }
        }
        List<TenantWorkload> waiting = rows.stream().filter(TenantWorkload::waits).toList();
        List<TenantWorkload> holding = rows.stream().filter(r -> !r.waits()).toList();
        return workloads.data("page", page).data("tenant", Optional.ofNullable(tenant).orElse("")).data("cluster", Optional.ofNullable(cluster).orElse(""))
                .data("read", read).data("waiting", waiting).data("holding", holding);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
