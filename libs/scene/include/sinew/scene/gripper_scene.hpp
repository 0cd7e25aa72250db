/// @file
/// @brief The soft gripper of issue 21, deformable, rigid and articulated bodies in one scene
/// with contact between any two of them: two Neo-Hookean FEM finger pads are held by two rigid
/// jaws (each node of a pad's outer face by a ball joint), the jaws slide on a rigid palm (driven sliders along
/// x), the palm slides on the world (a driven slider along z), and the fingers close on a free
/// rigid box resting on a rigid table, lift it and hold it. Finger vertices touch the box, and
/// the box's corners and edges the fingers' faces and edges, with impulses on both sides; the box
/// touches the table; the fingers' friction on the box is a material pair of its own.
#pragma once

#include <array>
#include <memory>

#include "sinew/model/reduced_system.hpp"
#include "sinew/scene/contact_scenes.hpp"

namespace sinew::scene {

/// What the soft gripper is made of and when it moves.
struct GripperOptions {
  double grip_friction = 0.8;   ///< finger-box Coulomb coefficient
  double table_friction = 0.8;  ///< box-table and finger-table coefficient
  double box_mass = 0.5;        ///< kg (a 8 cm cube)
  double youngs_modulus = 1e5;  ///< of the fingers (Pa), stable Neo-Hookean, nu = 0.3
  double squeeze = 1.5e-3;      ///< how far each jaw travels past first touch (m)
  double close_speed = 0.02;    ///< jaw speed while closing (m/s)
  double lift_height = 0.1;     ///< palm travel while lifting (m)
  double lift_speed = 0.05;     ///< palm speed while lifting (m/s)
  double hold_time = 2.0;       ///< s held at the top
  double time_step = 5e-3;      ///< h (s)
  /// Hold the pads' outer nodes by null-space reduction (GripperScene::reduced, ArtiSynth notes
  /// 0.17) instead of a ball joint per node.
  bool reduce_attachments = false;
};

/// The soft gripper, its parts and its schedule (close, then lift, then hold; see the file comment).
struct GripperScene {
  ContactScene scene;                     ///< system, contact (table, box, fingers) and joints
  Index palm = -1;                        ///< the palm body
  std::array<Index, 2> jaws{{-1, -1}};    ///< the jaw bodies (-x, +x)
  Index box = -1;                         ///< the free box
  std::array<DeformableBody, 2> fingers;  ///< the FEM fingers (-x, +x)
  double close_end = 0.0;                 ///< the jaws stop at this time (s)
  double lift_end = 0.0;                  ///< the palm stops at this time (s)
  double hold_end = 0.0;                  ///< the end of the hold (s)
  int steps = 0;                          ///< steps of options.time_step to hold_end
  /// With GripperOptions::reduce_attachments: the system with the pads' outer nodes eliminated
  /// into the jaws; scene.state.u then holds its velocities (step it, not scene.system).
  std::unique_ptr<model::ReducedSystem> reduced;
};

/// Builds the soft gripper with @p options.
/// @throws sinew::Error when an option is not finite and > 0 (frictions >= 0).
GripperScene soft_gripper_scene(const GripperOptions& options = {});

}  // namespace sinew::scene
