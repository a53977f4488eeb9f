package io.gpumeter.collector.http;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A GET of a Kubernetes API path through the client's own authenticated HTTP client, read no further than a limit:
 * unlike {@code KubernetesClient.raw}, which reads any answer whole into memory.
 */
public final class BoundedApiGet {

    private static final Logger LOG = Logger.getLogger(BoundedApiGet.class);

    private final KubernetesClient client;
    private final BoundedBody bounded;

    public BoundedApiGet(KubernetesClient client, BoundedBody bounded) {
        this.client = client;
        this.bounded = bounded;
    }

    /**
     * The body at {@code path}, null for a 404.
     *
     * @throws BoundedBody.TooLarge when it is longer than {@code maxBytes}
     * @throws KubernetesClientException for any other refusal
     */
    public String get(String source, String path, long maxBytes) throws IOException {
        try {
            return getOnce(source, path, maxBytes);
        } catch (ExecutionException e) {
            throw new IOException("the Kubernetes API did not answer: " + e.getCause(), e);
        }
    }

    private String getOnce(String source, String path, long maxBytes) throws IOException, ExecutionException {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(client.getMasterUrl().toString().replaceAll("/+$", "") + path).build();
        HttpResponse<InputStream> response;
        try {
            response = send(http, request);
        } catch (ExecutionException e) {
            // a pooled connection whose previous answer was refused part-way may be closed under us: once more
            response = send(http, request);
        }
        if (!response.isSuccessful()) {
            discard(response.body());
            if (response.code() == 404) {
                return null;
            }
            throw new KubernetesClientException("HTTP " + response.code(), response.code(), null);
        }
        String length = response.header("Content-Length");
        return bounded.read(source, "the Kubernetes API at " + path, response.body(),
                length == null || !length.matches("\\d{1,18}") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(length)),
                maxBytes);
    }

    private HttpResponse<InputStream> send(HttpClient http, HttpRequest request) throws IOException, ExecutionException {
        try {
            return http.sendAsync(request, InputStream.class)
                    .get(Math.max(1, client.getConfiguration().getRequestTimeout()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IOException("the Kubernetes API did not answer in time", e);
        }
    }

    /** A refusal's body is not read; closing it may fail once the connection is gone, which changes nothing. */
    private static void discard(InputStream body) {
        try (InputStream ignored = body) {
            // closed on leaving
        } catch (IOException | RuntimeException e) {
            LOG.debugf("closing a refused answer failed: %s", e.getMessage());
        }
    }
}
