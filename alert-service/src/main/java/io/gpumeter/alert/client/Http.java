package io.gpumeter.alert.client;

import jakarta.ws.rs.WebApplicationException;

/** Status checks and short reasons for failed calls. */
public final class Http {

    private Http() {
    }

    public static boolean notFound(Throwable e) {
        return e instanceof WebApplicationException w && w.getResponse() != null && w.getResponse().getStatus() == 404;
    }

    /** A short reason for logs and rule notes, never a stack trace. */
    public static String reason(Throwable e) {
        if (e instanceof WebApplicationException w && w.getResponse() != null) {
            return "HTTP " + w.getResponse().getStatus();
        }
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + (message.length() > 160 ? message.substring(0, 160) : message));
    }
}
