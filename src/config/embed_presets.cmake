# Writes every preset file INPUT_DIR/*.toml into OUTPUT as a C++ table `kPresetTexts` of
# {name, text}, sorted by name, the name being the file name without .toml.
file(GLOB inputs ${INPUT_DIR}/*.toml)
list(SORT inputs)
set(body "")
foreach(input ${inputs})
  get_filename_component(name ${input} NAME_WE)
  file(READ ${input} content)
  string(APPEND body "    {\"${name}\", R\"lockstep_toml(${content})lockstep_toml\"},\n")
endforeach()
file(WRITE ${OUTPUT} "#pragma once\n// Generated from configs/*.toml by embed_presets.cmake; do not edit.\n"
     "#include <string_view>\n\nnamespace lockstep::config {\n\n"
     "struct PresetText {\n  std::string_view name;\n  std::string_view text;\n};\n\n"
     "inline constexpr PresetText kPresetTexts[] = {\n${body}};\n\n}  // namespace lockstep::config\n")
