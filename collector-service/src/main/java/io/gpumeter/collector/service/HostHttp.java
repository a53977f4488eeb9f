package io.gpumeter.collector.service;

import io.gpumeter.collector.http.BoundedBody;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;

/**
 * GETs and form POSTs of a text endpoint for host series, with a bearer token where one is given (a kubelet checks it
 * against nodes/metrics) and the TLS trust a kubelet's serving certificate needs: a CA file, the JDK's store, or none.
 * Anything but 200 is a failure; a body over the limit is refused without being read to its end.
 */
final class HostHttp {

    private final HttpClient http;
    private final BoundedBody bounded;
    private final String source;

    HostHttp(BoundedBody bounded, String source, Optional<String> caFile, boolean insecure) {
        this.bounded = bounded;
        this.source = source;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (insecure || caFile.isPresent()) {
            builder.sslContext(context(caFile, insecure));
        }
        this.http = builder.build();
    }

    String get(URI uri, Optional<String> bearer, Duration timeout, long maxBytes) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        bearer.ifPresent(token -> request.header("Authorization", "Bearer " + token));
        return send(request.build(), uri, maxBytes);
    }

    /** A form POST, as Prometheus takes a query too long for a URL. */
    String post(URI uri, String form, Duration timeout, long maxBytes) throws IOException {
        return send(HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), uri, maxBytes);
    }

    private String send(HttpRequest request, URI uri, long maxBytes) throws IOException {
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                response.body().close();
                throw new IOException("HTTP " + response.statusCode());
            }
            return bounded.read(source, source + " at " + uri.getHost() + ":" + uri.getPort(), response.body(),
                    response.headers().firstValueAsLong("Content-Length"), maxBytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The token in a file, re-read each time: a projected service-account token rotates. Empty when unreadable. */
    static Optional<String> token(String file) {
        try {
            String token = Files.readString(Path.of(file)).strip();
            return token.isEmpty() ? Optional.empty() : Optional.of(token);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static SSLContext context(Optional<String> caFile, boolean insecure) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, insecure ? new TrustManager[] {new TrustingAll()} : trustManagers(caFile.orElseThrow()), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot set up TLS for " + caFile.orElse("kubelets") + ": " + e.getMessage(), e);
        }
    }

    private static TrustManager[] trustManagers(String caFile) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = Files.newInputStream(Path.of(caFile))) {
            int i = 0;
            for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("ca-" + i++, cert);
            }
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    /** Trusts every certificate and every host name: only where configured, for self-signed kubelet certificates. */
    private static final class TrustingAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
