// The viewer's GLSL ES 3.00 shaders.

/// The vertex shader: positions to clip space, normals and positions to view space.
export const vertexShader = `#version 300 es
  in vec3 aPosition; in vec3 aNormal; in vec2 aUV;
  uniform mat4 uModel, uView, uProjection; uniform mat3 uNormal;
  out vec3 vNormal; out vec2 vUV; out vec3 vView;
  void main() {
    vec4 view = uView * uModel * vec4(aPosition, 1.0);
    vNormal = mat3(uView) * (uNormal * aNormal); vUV = aUV; vView = view.xyz;
    gl_Position = uProjection * view;
  }`;

/// The fragment shader: metallic-roughness lit by two lights (shaded flat without normals), as
/// bright as `uLight` says (the AR view's light estimate; 1 elsewhere), colour in sRGB, alpha
/// premultiplied.
export const fragmentShader = `#version 300 es
  precision highp float;
  in vec3 vNormal; in vec2 vUV; in vec3 vView;
  uniform vec4 uBase; uniform float uMetallic, uRoughness; uniform vec3 uEmissive; uniform int uAlphaMode; uniform float uCutoff;
  uniform bool uHasTexture, uHasNormals; uniform sampler2D uTexture; uniform float uLight;
  out vec4 color;
  vec3 toLinear(vec3 c) { return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c)); }
  vec3 toSRGB(vec3 c) { c = clamp(c, 0.0, 1.0); return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c)); }
  void main() {
    vec4 base = uBase;
    if (uHasTexture) { vec4 t = texture(uTexture, vUV); base *= vec4(toLinear(t.rgb), t.a); }
    if (uAlphaMode == 1) { if (base.a < uCutoff) discard; base.a = 1.0; } else if (uAlphaMode == 0) base.a = 1.0;
    // Without normals a face is lit flat, by the normal of its plane in view space.
    vec3 n = uHasNormals ? normalize(vNormal) : normalize(cross(dFdx(vView), dFdy(vView)));
    vec3 v = vec3(0.0, 0.0, 1.0);
    if (dot(n, v) < 0.0) n = -n;
    float metallic = clamp(uMetallic, 0.0, 1.0), roughness = clamp(uRoughness, 0.05, 1.0);
    vec3 albedo = base.rgb, f0 = mix(vec3(0.04), albedo, metallic);
    float a = roughness * roughness, shininess = max(2.0 / max(a * a, 1e-4) - 2.0, 1.0);
    vec3 result = albedo * (1.0 - metallic) * 0.22 + f0 * 0.2;
    vec3 lights[2] = vec3[2](normalize(vec3(-0.45, 0.75, 0.5)), normalize(vec3(0.7, -0.1, 0.7)));
    float strength[2] = float[2](0.95, 0.4);
    for (int i = 0; i < 2; i++) {
      float lambert = max(dot(n, lights[i]), 0.0);
      if (lambert <= 0.0) continue;
      vec3 h = normalize(lights[i] + v);
      float specular = pow(max(dot(n, h), 0.0), shininess) * (shininess + 8.0) / 25.132741;
      result += (albedo * (1.0 - metallic) + f0 * specular) * lambert * strength[i];
    }
    result *= uLight;
    result += uEmissive;
    color = vec4(toSRGB(result) * base.a, base.a);
  }`;
