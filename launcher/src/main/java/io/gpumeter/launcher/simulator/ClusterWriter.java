package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.net.HttpURLConnection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Replays a plan into an API server, one request per event, in order: ADDED creates, MODIFIED updates, DELETED
 * first stores the last state (so that deletionTimestamp and the final container states are on the object the
 * watchers receive) and then deletes with grace period 0. The history's resourceVersions are replaced by the
 * server's own: each update names the version the previous answer returned, so it costs one request.
 * <p>
 * The stock fabric8 CRUD mock removes an object as soon as an update gives it a deletionTimestamp; the later
 * updates of that terminating object then find nothing, which is tolerated (and only then) so that the final
 * state still comes out right. {@link io.gpumeter.launcher.kube.HistoryCrudDispatcher} keeps every step.
 */
final class ClusterWriter {

    private final KubernetesClient client;
    private final KubernetesSerialization serialization = new KubernetesSerialization();
    /** The server's resourceVersion of each live object, by the history's uid. */
    private final Map<String, String> versions = new HashMap<>();
    /** Objects the history has marked for deletion (the stock mock may already have removed them). */
    private final Set<String> terminating = new HashSet<>();

    ClusterWriter(KubernetesClient client) {
        this.client = client;
    }

    void apply(Plan plan) {
        for (SimEvent event : plan.events()) {
            HasMetadata object = serialization.clone(event.object());
            String uid = object.getMetadata().getUid();
            object.getMetadata().setResourceVersion(versions.get(uid));
            switch (event.type()) {
                case ADDED -> remember(uid, client.resource(object).create());
                case MODIFIED -> update(object);
                case DELETED -> {
                    if (object.getMetadata().getDeletionTimestamp() != null) {
                        update(object);
                    }
                    client.resource(object).withGracePeriod(0).delete();
                    terminating.remove(uid);
                    versions.remove(uid);
                }
            }
        }
    }

    private void update(HasMetadata object) {
        String uid = object.getMetadata().getUid();
        try {
            remember(uid, client.resource(object).update());
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND || !terminating.contains(uid)) {
                throw e;
            }
        }
        if (object.getMetadata().getDeletionTimestamp() != null) {
            terminating.add(uid);
        }
        object.getMetadata().setResourceVersion(versions.get(uid));
    }

    private void remember(String uid, HasMetadata answer) {
        if (answer != null && answer.getMetadata() != null) {
            versions.put(uid, answer.getMetadata().getResourceVersion());
        }
    }
}
