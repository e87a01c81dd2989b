package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A ResourceFlavor as a worker needs it: which nodes are in it, their taints, and tolerations to add to pods. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FlavorDefinition {
    private String name;
    private Map<String, String> nodeLabels = new LinkedHashMap<>();
    private List<TaintSpec> nodeTaints = new ArrayList<>();
    private List<TolerationSpec> tolerations = new ArrayList<>();
    /** spec.topologyName of the ResourceFlavor; null when it names no Topology. */
    private String topologyName;
    /** Node label keys of that Topology's levels, outermost first; empty without a topology. */
    private List<String> topologyLevels = new ArrayList<>();

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Map<String, String> getNodeLabels() { return nodeLabels; }
    public void setNodeLabels(Map<String, String> nodeLabels) { this.nodeLabels = nodeLabels; }
    public List<TaintSpec> getNodeTaints() { return nodeTaints; }
    public void setNodeTaints(List<TaintSpec> nodeTaints) { this.nodeTaints = nodeTaints; }
    public List<TolerationSpec> getTolerations() { return tolerations; }
    public void setTolerations(List<TolerationSpec> tolerations) { this.tolerations = tolerations; }
    public String getTopologyName() { return topologyName; }
    public void setTopologyName(String topologyName) { this.topologyName = topologyName; }
    public List<String> getTopologyLevels() { return topologyLevels; }
    public void setTopologyLevels(List<String> topologyLevels) { this.topologyLevels = topologyLevels; }

    /** A node taint. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class TaintSpec {
        private String key;
        private String value;
        private String effect;

        public TaintSpec() {}

        public TaintSpec(String key, String value, String effect) {
            this.key = key;
            this.value = value;
            this.effect = effect;
        }

        public String getKey() { return key; }
        public void setKey(String key) { this.key = key; }
        public String getValue() { return value; }
        public void setValue(String value) { this.value = value; }
        public String getEffect() { return effect; }
        public void setEffect(String effect) { this.effect = effect; }
    }

    /** A pod toleration. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class TolerationSpec {
        private String key;
        private String operator;
        private String value;
        private String effect;

        public TolerationSpec() {}

        public TolerationSpec(String key, String operator, String value, String effect) {
            this.key = key;
            this.operator = operator;
            this.value = value;
            this.effect = effect;
        }

        public String getKey() { return key; }
        public void setKey(String key) { this.key = key; }
        public String getOperator() { return operator; }
        public void setOperator(String operator) { this.operator = operator; }
        public String getValue() { return value; }
        public void setValue(String value) { this.value = value; }
        public String getEffect() { return effect; }
        public void setEffect(String effect) { this.effect = effect; }
    }
}
