package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.governance.service.Decision;
import io.gpumeter.ledger.governance.service.PodQueue;
import io.gpumeter.ledger.governance.service.QueueReport;
import io.gpumeter.ledger.governance.service.SchedulingAuditService;
import io.gpumeter.ledger.rest.PodRefs;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** Q6: the decision trail of a pod, Kueue workload or Volcano pod group; rejection rate and quota per ClusterQueue. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class SchedulingDecisionResource {

    /** The most pods one pod queues read names; a larger set is split by the caller. */
    static final int MAX_PODS = 2000;

    private final SchedulingAuditService audit;

    public SchedulingDecisionResource(SchedulingAuditService audit) {
        this.audit = audit;
    }

    /** Exactly one of pod, workload or podGroup, each with its namespace (or written as namespace/name). */
    @GET
    @Path("/scheduling-decisions")
    public Uni<Decision> decisions(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                   @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                                   @QueryParam("cluster") String cluster) {
        int given = (pod == null ? 0 : 1) + (workload == null ? 0 : 1) + (podGroup == null ? 0 : 1);
        if (given != 1) {
            throw ApiProblem.badRequest("pod", "name exactly one of pod, workload or podGroup (with namespace)");
        }
        String name = pod != null ? pod : workload != null ? workload : podGroup;
        String ns = namespace;
        int slash = name.indexOf('/');
        if (slash > 0 && (ns == null || ns.isBlank())) {
            ns = name.substring(0, slash);
            name = name.substring(slash + 1);
        }
        if (pod != null) {
            return audit.ofPod(cluster, ns, name);
        }
        return workload != null ? audit.ofWorkload(cluster, ns, name) : audit.ofPodGroup(cluster, ns, name);
    }

    /**
     * The queue each of a set of pods went through, in the order asked: what a caller placing many pods needs of
     * their decisions, in one request. {@code known} is false for a pod the ledger holds no scheduling record of.
     */
    @POST
    @Path("/pod-queues")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<List<PodQueue>> podQueues(PodQueuesRequest request) {
        if (request == null) {
            throw ApiProblem.badRequest("body", "a pod queues request is required: {\"pods\":[{\"namespace\",\"pod\"}]}");
        }
        return audit.queuesOf(Params.optional(request.cluster()), PodRefs.keys(request.pods(), MAX_PODS));
    }

    @GET
    @Path("/cluster-queues")
    public Uni<List<QueueReport>> clusterQueues(@QueryParam("from") String from, @QueryParam("to") String to,
                                                @QueryParam("cluster") String cluster) {
        return audit.clusterQueues(Params.instant("from", from), Params.instant("to", to), cluster);
    }
}
