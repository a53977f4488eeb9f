package io.gpumeter.launcher.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fabric8 CRUD mock, adjusted to replay a recorded history faithfully. The stock dispatcher (a) stamps its own
 * uid and creationTimestamp (the wall clock) on every create and (b) deletes at once any object that an update
 * marks with a deletionTimestamp, so the terminating state never reaches watchers. This one keeps the uid and
 * creationTimestamp the client sent, and stores an update carrying a deletionTimestamp as a terminating object
 * that the next DELETE removes; it also answers {@code /version} and the discovery documents of the kinds it holds
 * ({@link Discovery}), so that kubectl and clients that discover first work against it, and remembers which
 * resources are being watched.
 */
public class HistoryCrudDispatcher extends KubernetesCrudDispatcher {

    /** Lets a terminating update through the stock handler; never stored, never seen by watchers. */
    private static final String HOLD_FINALIZER = "gpumeter.io/replay-terminating";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION = "{\"major\":\"1\",\"minor\":\"31\",\"gitVersion\":\"v1.31.4\","
            + "\"platform\":\"linux/amd64\"}";

    private final ThreadLocal<JsonNode> suppliedMetadata = new ThreadLocal<>();
    private final Set<String> watched = ConcurrentHashMap.newKeySet();

    public HistoryCrudDispatcher() {
        super(List.of());
    }

    /** The plural names (pods, nodes, …) some client has opened a watch on. */
    public Set<String> watchedResources() {
        return Set.copyOf(watched);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if ("GET".equals(request.getMethod()) && "/version".equals(request.getPath())) {
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(VERSION);
        }
        if ("GET".equals(request.getMethod())) {
            Discovery.Answer answer = Discovery.answer(request.getPath());
            if (answer != null) {
                return new MockResponse().setResponseCode(answer.status())
                        .setHeader("Content-Type", "application/json").setBody(answer.body());
            }
        }
        MockResponse response = super.dispatch(request);
        // The stock answers carry no media type; kubectl, which asks for protobuf first, would then read JSON as
        // protobuf. A watch is left as the stock handler shapes it.
        if (response != null && response.header("Content-Type") == null
                && !String.valueOf(request.getPath()).matches(".*[?&]watch=(true|1).*")) {
            response.setHeader("Content-Type", "application/json");
        }
        return response;
    }

    @Override
    public MockResponse handleGet(String path) {
        int query = path.indexOf('?');
        if (query > 0 && path.substring(query).matches(".*[?&]watch=(true|1).*")) {
            String resourcePath = path.substring(0, query);
            watched.add(resourcePath.substring(resourcePath.lastIndexOf('/') + 1));
        }
        return super.handleGet(path);
    }

    @Override
    public MockResponse handleCreate(RecordedRequest request) {
        ObjectNode body = readObject(request.getBody().getBytes());
        suppliedMetadata.set(body == null ? null : body.get("metadata"));
        try {
            return super.handleCreate(request);
        } finally {
            suppliedMetadata.remove();
        }
    }

    @Override
    public MockResponse handleUpdate(RecordedRequest request) {
        ObjectNode body = readObject(request.getBody().getBytes());
        if (body == null || !(body.get("metadata") instanceof ObjectNode metadata)
                || !metadata.hasNonNull("deletionTimestamp") || metadata.path("finalizers").size() > 0) {
            return super.handleUpdate(request);
        }
        metadata.putArray("finalizers").add(HOLD_FINALIZER);
        RecordedRequest held = new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(),
                request.getHeaders(), new Buffer(write(body).getBytes(StandardCharsets.UTF_8)));
        return super.handleUpdate(held);
    }

    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
                             GenericKubernetesResource resource, String newState) {
        String state = newState;
        if (state != null) {
            ObjectNode node = readObject(state.getBytes(StandardCharsets.UTF_8));
            ObjectNode metadata = (ObjectNode) node.get("metadata");
            JsonNode supplied = suppliedMetadata.get();
            if (oldAttributes == null && supplied != null) {
                copyText(supplied, metadata, "uid");
                copyText(supplied, metadata, "creationTimestamp");
            }
            if (metadata.get("finalizers") instanceof ArrayNode finalizers) {
                for (int i = finalizers.size() - 1; i >= 0; i--) {
                    if (HOLD_FINALIZER.equals(finalizers.get(i).asText())) {
                        finalizers.remove(i);
                    }
                }
                if (finalizers.isEmpty()) {
                    metadata.remove("finalizers");
                }
            }
            state = write(node);
        }
        super.processEvent(path, pathAttributes, oldAttributes, resource, state);
    }

    private static void copyText(JsonNode from, ObjectNode to, String field) {
        if (from.hasNonNull(field)) {
            to.put(field, from.get(field).asText());
        }
    }

    private static ObjectNode readObject(byte[] json) {
        try {
            return JSON.readTree(json) instanceof ObjectNode object ? object : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
