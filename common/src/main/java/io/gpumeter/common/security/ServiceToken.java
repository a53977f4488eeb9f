package io.gpumeter.common.security;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Optional;

/**
 * Puts this service's own token ({@code gpumeter.auth.service-token}) on its calls to the other gpumeter services.
 * Registered only on clients of gpumeter services, so the token never travels to a third party.
 */
public class ServiceToken implements ClientRequestFilter {

    private final Optional<String> token = ConfigProvider.getConfig()
            .getOptionalValue("gpumeter.auth.service-token", String.class)
            .map(String::strip).filter(t -> !t.isEmpty());

    @Override
    public void filter(ClientRequestContext request) {
        if (token.isPresent() && !request.getHeaders().containsKey(HttpHeaders.AUTHORIZATION)) {
            request.getHeaders().putSingle(HttpHeaders.AUTHORIZATION, "Bearer " + token.get());
        }
    }
}
