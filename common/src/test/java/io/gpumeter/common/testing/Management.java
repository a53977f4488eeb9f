package io.gpumeter.common.testing;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Requests to the service's management port, where {@code /q/health} and {@code /q/metrics} live; the API port
 * (RestAssured's default) does not serve them.
 */
public final class Management {

    private Management() {
    }

    /** The port the management interface of the service under test listens on. */
    public static int port() {
        return ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
    }

    public static RequestSpecification given() {
        return RestAssured.given().port(port());
    }
}
