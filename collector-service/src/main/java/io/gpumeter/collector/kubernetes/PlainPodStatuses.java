package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateRunning;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodStatus;

import java.io.IOException;

import static io.gpumeter.collector.kubernetes.PlainTokens.integer;
import static io.gpumeter.collector.kubernetes.PlainTokens.list;
import static io.gpumeter.collector.kubernetes.PlainTokens.next;
import static io.gpumeter.collector.kubernetes.PlainTokens.object;
import static io.gpumeter.collector.kubernetes.PlainTokens.string;

/**
 * A pod's status for {@link PlainPods}: phase, reason, conditions (with the reason and message a PodScheduled=False
 * condition carries), the containers' states and the claims' names.
 */
final class PlainPodStatuses {

    private PlainPodStatuses() {
    }

    static PodStatus status(JsonParser p, JsonToken start) throws IOException {
        PodStatus status = new PodStatus();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "phase" -> status.setPhase(string(p, value));
                case "reason" -> status.setReason(string(p, value));
                case "message" -> status.setMessage(string(p, value));
                case "conditions" -> status.setConditions(list(p, value, PlainPodStatuses::condition));
                case "containerStatuses" -> status.setContainerStatuses(list(p, value, PlainPodStatuses::containerStatus));
                case "initContainerStatuses" ->
                        status.setInitContainerStatuses(list(p, value, PlainPodStatuses::containerStatus));
                case "resourceClaimStatuses" ->
                        status.setResourceClaimStatuses(list(p, value, PlainPodStatuses::resourceClaimStatus));
                default -> p.skipChildren();
            }
        }
        return status;
    }

    private static PodCondition condition(JsonParser p, JsonToken start) throws IOException {
        PodCondition condition = new PodCondition();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "type" -> condition.setType(string(p, value));
                case "status" -> condition.setStatus(string(p, value));
                case "reason" -> condition.setReason(string(p, value));
                case "message" -> condition.setMessage(string(p, value));
                case "lastTransitionTime" -> condition.setLastTransitionTime(string(p, value));
                default -> p.skipChildren();
            }
        }
        return condition;
    }

    private static ContainerStatus containerStatus(JsonParser p, JsonToken start) throws IOException {
        ContainerStatus status = new ContainerStatus();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "name" -> status.setName(string(p, value));
                case "restartCount" -> status.setRestartCount(integer(p, value));
                case "state" -> status.setState(state(p, value));
                case "lastState" -> status.setLastState(state(p, value));
                default -> p.skipChildren();
            }
        }
        return status;
    }

    private static ContainerState state(JsonParser p, JsonToken start) throws IOException {
        ContainerState state = new ContainerState();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "terminated" -> state.setTerminated(terminated(p, value));
                case "running" -> state.setRunning(running(p, value));
                case "waiting" -> state.setWaiting(waiting(p, value));
                default -> p.skipChildren();
            }
        }
        return state;
    }

    private static ContainerStateTerminated terminated(JsonParser p, JsonToken start) throws IOException {
        ContainerStateTerminated terminated = new ContainerStateTerminated();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "reason" -> terminated.setReason(string(p, value));
                case "message" -> terminated.setMessage(string(p, value));
                case "exitCode" -> terminated.setExitCode(integer(p, value));
                case "startedAt" -> terminated.setStartedAt(string(p, value));
                case "finishedAt" -> terminated.setFinishedAt(string(p, value));
                default -> p.skipChildren();
            }
        }
        return terminated;
    }

    private static ContainerStateRunning running(JsonParser p, JsonToken start) throws IOException {
        ContainerStateRunning running = new ContainerStateRunning();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            if ("startedAt".equals(p.currentName())) {
                running.setStartedAt(string(p, value));
            } else {
                p.skipChildren();
            }
        }
        return running;
    }

    private static ContainerStateWaiting waiting(JsonParser p, JsonToken start) throws IOException {
        ContainerStateWaiting waiting = new ContainerStateWaiting();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "reason" -> waiting.setReason(string(p, value));
                case "message" -> waiting.setMessage(string(p, value));
                default -> p.skipChildren();
            }
        }
        return waiting;
    }

    private static PodResourceClaimStatus resourceClaimStatus(JsonParser p, JsonToken start) throws IOException {
        PodResourceClaimStatus status = new PodResourceClaimStatus();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "name" -> status.setName(string(p, value));
                case "resourceClaimName" -> status.setResourceClaimName(string(p, value));
                default -> p.skipChildren();
            }
        }
        return status;
    }
}
