package io.gpumeter.ledger.hami.domain;

/**
 * The checks a HAMi grant read off a pod's annotations must pass before it books a card. A pod's annotations are
 * written by its tenant as freely as by HAMi, so each check sets the annotation against something the tenant does not
 * write: the pod's spec as the scheduler and kubelet enforced it, the node's HAMi registration, the device side.
 */
public enum HamiCheck {
    /** The pod asks for no vGPU, or for fewer than the annotation grants. */
    NOT_REQUESTED("the pod's resources ask for fewer vGPUs than the annotation grants"),
    /** HAMi never marked the binding done ({@code hami.io/bind-phase} is not {@code success}). */
    NOT_BOUND("hami.io/bind-phase is not success: HAMi did not complete this binding"),
    /** {@code hami.io/vgpu-node} names another node than the one the pod runs on. */
    BOUND_ELSEWHERE("hami.io/vgpu-node names another node than the pod's"),
    /** The annotation changed after HAMi completed the binding; HAMi never rewrites it then. */
    CHANGED_AFTER_BINDING("the grant appeared after HAMi had completed the binding"),
    /** The pod's node is not known to the ledger yet: the grant waits for it. */
    NODE_NOT_KNOWN("the pod's node is not known yet: the grant waits for the node's HAMi registration"),
    /** The card is not in the HAMi registration of the pod's node. */
    CARD_NOT_ON_NODE("the card is not registered by HAMi on the pod's node"),
    /** The grant gives more memory than the pod's spec asks for (or than the card registered). */
    MEMORY_OVER_REQUEST("the grant's memory exceeds what the pod's resources ask for"),
    /** The grant gives more cores than the pod's spec asks for. */
    CORES_OVER_REQUEST("the grant's cores exceed what the pod's resources ask for"),
    /** The device side (dcgm-exporter's pod mapping, HAMi's monitor) saw the pod on other cards, never on this one. */
    DEVICE_SEES_OTHER_CARD("the device side saw the pod on other cards, never on this one");

    private final String words;

    HamiCheck(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }

    /** A grant that fails only this check is not refused yet: it is booked or refused once the node is known. */
    public boolean waits() {
        return this == NODE_NOT_KNOWN;
    }
}
